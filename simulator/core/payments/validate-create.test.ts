import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { validateCreatePayment } from './create-draft.ts';

const NOW = Date.parse('2026-11-21T10:00:00.000Z');
const A = '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed';
const B = '0xfb6916095ca1df60bb79ce92ce3ea74c37c5d359';

function errorsOf(body: unknown): { path: string[]; message: string }[] {
  const result = validateCreatePayment(body, NOW);
  return result.ok ? [] : result.problems.list();
}
const paths = (body: unknown): string[][] => errorsOf(body).map((e) => e.path);

describe('validateCreatePayment', () => {
  it('accepts the minimal body and applies the defaults', () => {
    const result = validateCreatePayment({ amount: '100.5', currency: 'USD' }, NOW);
    expect(result).toEqual({
      ok: true,
      draft: {
        amount: '100.5',
        currency: 'USD',
        title: null,
        externalId: null,
        acceptedChains: [1, 42161, 8453, 137, 56],
        acceptedTokens: ['USDC', 'USDT'],
        serviceFee: '0.50',
        merchantFee: '100.00',
        sellers: null,
        expiresAt: undefined,
      },
    });
  });

  it.each([
    ['100', []],
    ['100.5', []],
    ['100.00', []],
    ['1000000000000', []],
    ['1', []],
    ['1000000000000.01', [['amount']]],
    ['0.99', [['amount']]],
    ['01', [['amount']]],
    ['1.', [['amount']]],
    ['1.234', [['amount']]],
    ['-1', [['amount']]],
    ['1e3', [['amount']]],
    [' 1', [['amount']]],
    ['', [['amount']]],
    [100, [['amount']]],
    [null, [['amount']]],
  ])('USD amount %j -> %j', (amount, expected) => {
    expect(paths({ amount, currency: 'USD' })).toEqual(expected);
  });

  it('applies zero-decimal and minimum rules per currency', () => {
    expect(paths({ amount: '150', currency: 'JPY' })).toEqual([]);
    expect(paths({ amount: '150.00', currency: 'JPY' })).toEqual([['amount']]);
    expect(paths({ amount: '149', currency: 'JPY' })).toEqual([['amount']]);
    expect(paths({ amount: '15999', currency: 'IDR' })).toEqual([['amount']]);
    expect(paths({ amount: '25000.5', currency: 'VND' })).toEqual([['amount']]);
    expect(validateCreatePayment({ amount: '150', currency: 'JPY' }, NOW)).toMatchObject({
      draft: { serviceFee: '1', merchantFee: '149' },
    });
  });

  it('reports one entry per invalid field, including unknown fields', () => {
    const errors = errorsOf({
      amount: 'x',
      currency: 'XXX',
      title: 'a'.repeat(256),
      externalId: 'has space',
      acceptedChains: [1, 999, 1],
      acceptedTokens: 'USDC',
      expiresAt: 'tomorrow',
      foo: 1,
      bar: 2,
    });
    expect(errors.map((e) => e.path)).toEqual([
      ['foo'],
      ['bar'],
      ['currency'],
      ['amount'],
      ['title'],
      ['externalId'],
      ['acceptedChains', '1'],
      ['acceptedChains', '2'],
      ['acceptedTokens'],
      ['expiresAt'],
    ]);
    expect(new Set(errors.map((e) => JSON.stringify(e.path))).size).toBe(errors.length);
  });

  it('requires amount and currency and an object body', () => {
    expect(paths({})).toEqual([['currency'], ['amount']]);
    for (const body of [null, [], 'x', 1, true]) expect(paths(body)).toEqual([[]]);
  });

  it('counts title length in characters and checks externalId length and charset', () => {
    expect(paths({ amount: '1', currency: 'USD', title: '😀'.repeat(255) })).toEqual([]);
    expect(paths({ amount: '1', currency: 'USD', externalId: 'a'.repeat(36) })).toEqual([]);
    expect(paths({ amount: '1', currency: 'USD', externalId: 'a'.repeat(37) })).toEqual([['externalId']]);
    expect(paths({ amount: '1', currency: 'USD', externalId: 'A-z_0.9' })).toEqual([]);
    expect(paths({ amount: '1', currency: 'USD', externalId: 'ä' })).toEqual([['externalId']]);
    expect(paths({ amount: '1', currency: 'USD', externalId: '' })).toEqual([['externalId']]);
  });

  it('needs at least one (chain, token) pair of the table', () => {
    expect(paths({ amount: '1', currency: 'USD', acceptedChains: [8453], acceptedTokens: ['USDT'] })).toEqual([['acceptedTokens']]);
    expect(paths({ amount: '1', currency: 'USD', acceptedChains: [56], acceptedTokens: ['USDC'] })).toEqual([['acceptedTokens']]);
    expect(paths({ amount: '1', currency: 'USD', acceptedChains: [8453, 56], acceptedTokens: ['USDC'] })).toEqual([]);
    expect(paths({ amount: '1', currency: 'USD', acceptedChains: [] })).toEqual([['acceptedChains']]);
    expect(paths({ amount: '1', currency: 'USD', acceptedChains: ['1'] })).toEqual([['acceptedChains', '0']]);
  });

  it('keeps expiresAt within now+15 min .. now+30 days, bounds included', () => {
    const at = (ms: number): string => new Date(NOW + ms).toISOString();
    expect(paths({ amount: '1', currency: 'USD', expiresAt: at(15 * 60_000) })).toEqual([]);
    expect(paths({ amount: '1', currency: 'USD', expiresAt: at(30 * 86_400_000) })).toEqual([]);
    expect(paths({ amount: '1', currency: 'USD', expiresAt: at(15 * 60_000 - 1) })).toEqual([['expiresAt']]);
    expect(paths({ amount: '1', currency: 'USD', expiresAt: at(30 * 86_400_000 + 1) })).toEqual([['expiresAt']]);
    expect(paths({ amount: '1', currency: 'USD', expiresAt: '2026-11-21T12:00:00+02:00' })).toEqual([['expiresAt']]);
    expect(paths({ amount: '1', currency: 'USD', expiresAt: '2026-11-21T13:00:00+02:00' })).toEqual([]);
    expect(paths({ amount: '1', currency: 'USD', expiresAt: '2026-02-30T10:00:00Z' })).toEqual([['expiresAt']]);
  });

  it('validates sellers with precise paths', () => {
    const body = (sellers: unknown): unknown => ({ amount: '100', currency: 'USD', sellers });
    expect(
      paths(
        body([
          { address: A, amount: '10' },
          { address: B, amount: '20' },
        ]),
      ),
    ).toEqual([]);
    expect(paths(body([]))).toEqual([['sellers']]);
    expect(paths(body(Array.from({ length: 6 }, () => ({ address: A, amount: '1' }))))).toEqual([['sellers']]);
    expect(
      paths(
        body([
          { address: A, amount: '10' },
          { address: A.toLowerCase(), amount: '1' },
        ]),
      ),
    ).toEqual([['sellers', '1', 'address']]);
    expect(paths(body([{ address: A.replace('a', 'A'), amount: '10' }]))).toEqual([['sellers', '0', 'address']]);
    expect(paths(body([{ address: A.toUpperCase().replace('0X', '0x'), amount: '10' }]))).toEqual([]);
    expect(paths(body([{ address: A, amount: '0' }, 'x', { address: B, amount: '1', x: 1 }]))).toEqual([
      ['sellers', '0', 'amount'],
      ['sellers', '1'],
      ['sellers', '2', 'x'],
    ]);
    expect(
      paths(
        body([
          { address: A, amount: '60' },
          { address: B, amount: '50' },
        ]),
      ),
    ).toEqual([['sellers']]);
  });

  it('checks merchantAmount against the sum', () => {
    const sellers = [{ address: A, amount: '30' }];
    expect(paths({ amount: '100', currency: 'USD', sellers, merchantAmount: '70' })).toEqual([]);
    expect(paths({ amount: '100', currency: 'USD', sellers, merchantAmount: '69.99' })).toEqual([['merchantAmount']]);
    expect(paths({ amount: '100', currency: 'USD', merchantAmount: '100.00' })).toEqual([]);
    expect(paths({ amount: '100', currency: 'USD', merchantAmount: '99' })).toEqual([['merchantAmount']]);
    // Omitted merchantAmount: the remainder must be positive (DESIGN.md); an explicit 0 is fine.
    expect(paths({ amount: '100', currency: 'USD', sellers: [{ address: A, amount: '100' }] })).toEqual([['sellers']]);
    expect(paths({ amount: '100', currency: 'USD', sellers: [{ address: A, amount: '99.99' }] })).toEqual([]);
    expect(paths({ amount: '100', currency: 'USD', sellers: [{ address: A, amount: '100' }], merchantAmount: '0' })).toEqual([]);
  });

  it('splits the fee over merchant and sellers so the parts add up exactly', () => {
    const result = validateCreatePayment(
      {
        amount: '100',
        currency: 'USD',
        sellers: [
          { address: A, amount: '33.33' },
          { address: B, amount: '33.33' },
        ],
      },
      NOW,
    );
    expect(result).toMatchObject({
      ok: true,
      draft: {
        serviceFee: '0.50',
        merchantFee: '33.17',
        sellers: [
          { address: A, amount: '33.16' },
          { address: B, amount: '33.17' },
        ],
      },
    });
  });
});

describe('fee properties end to end (strings in, strings out)', () => {
  const currencies = [
    { code: 'USD', minorUnits: 2, minimum: 100n },
    { code: 'JPY', minorUnits: 0, minimum: 150n },
    { code: 'IDR', minorUnits: 0, minimum: 16000n },
    { code: 'EUR', minorUnits: 2, minimum: 100n },
  ];
  const unitsToString = (units: bigint, minorUnits: number, trimmed: boolean): string => {
    if (minorUnits === 0) return units.toString();
    const s = units.toString().padStart(3, '0');
    const whole = s.slice(0, -2).replace(/^0+(?=\d)/, '');
    const frac = s.slice(-2);
    return trimmed && frac === '00' ? whole : `${whole}.${frac}`;
  };
  const parse = (value: string, minorUnits: number): bigint => {
    const [w, f = ''] = value.split('.');
    return BigInt(`${w}${f.padEnd(minorUnits, '0')}`);
  };

  it('merchantFee + Σ sellers + serviceFee = amount; |serviceFee − 0.005·amount| ≤ 1 minor unit', () => {
    const sellers = [
      A,
      B,
      '0x0000000000000000000000000000000000000001',
      '0x00000000000000000000000000000000000000aa',
      '0x00000000000000000000000000000000000000bb',
    ];
    fc.assert(
      fc.property(
        fc.constantFrom(...currencies),
        fc.bigInt({ min: 0n, max: 10n ** 14n }),
        fc.array(fc.bigInt({ min: 1n, max: 10n ** 9n }), { maxLength: 5 }),
        fc.boolean(),
        (currency, extra, sellerUnits, trimmed) => {
          const amount = currency.minimum + extra + sellerUnits.reduce((a, s) => a + s, 0n);
          if (amount > 10n ** 12n * 10n ** BigInt(currency.minorUnits)) return;
          const body = {
            amount: unitsToString(amount, currency.minorUnits, trimmed),
            currency: currency.code,
            ...(sellerUnits.length
              ? { sellers: sellerUnits.map((u, i) => ({ address: sellers[i], amount: unitsToString(u, currency.minorUnits, trimmed) })) }
              : {}),
          };
          const result = validateCreatePayment(body, NOW);
          if (!result.ok) throw new Error(JSON.stringify({ body, errors: result.problems.list() }));
          const d = result.draft;
          const m = currency.minorUnits;
          for (const v of [d.serviceFee, d.merchantFee, ...(d.sellers ?? []).map((s) => s.amount)]) {
            expect(v).toMatch(m === 0 ? /^\d+$/ : /^\d+\.\d{2}$/); // formatted with the currency's minor units
          }
          const total = parse(d.merchantFee, m) + (d.sellers ?? []).reduce((a, s) => a + parse(s.amount, m), 0n) + parse(d.serviceFee, m);
          expect(total).toBe(amount);
          const diff = parse(d.serviceFee, m) * 1000n - 5n * amount; // thousandths of a minor unit
          expect(diff >= -1000n && diff <= 1000n).toBe(true);
        },
      ),
      { numRuns: 1000 },
    );
  });
});
