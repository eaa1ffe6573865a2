// The create validator against the contract: its field list and every limit of the
// PaymentCreateRequest schema (lengths, patterns, item counts, enums, defaults) are read from the
// dereferenced openapi.yaml and checked against what validateCreatePayment accepts and refuses,
// so the YAML and the simulator cannot drift apart silently.
import { beforeAll, describe, expect, it } from 'vitest';
import { loadContractDocument } from '@stablepay/contract/contract-document';
import { keywordValue, propertiesOf, requiredOf, type Schema } from '@stablepay/contract/schema-introspection';
import type { PaymentCreateRequest } from '@stablepay/contract/types';
import { CHAIN_IDS, TOKENS } from '@stablepay/contract/chain-table';
import { CURRENCY_CODES } from '../reference-data/currencies.ts';
import { AMOUNT_MAXIMUM, AMOUNT_PATTERN } from '../validation/amount.ts';
import { CREATE_FIELDS, EXTERNAL_ID_PATTERN, MAX_SELLERS, TITLE_MAX } from './validate-create.ts';
import { validateCreatePayment } from './create-draft.ts';

const NOW = Date.parse('2026-11-21T10:00:00.000Z');
const SELLER_ADDRESSES = [
  '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed',
  '0xfB6916095ca1df60bB79Ce92cE3Ea74c37c5d359',
  '0xdbF03B407c01E7cD3CBea99509d93f8DDDC8C6FB',
  '0xD1220A0cf47c7B9Be7A2E6BA89F429762e7b9aDb',
  '0x52908400098527886e0f7030069857d2e4169ee7',
  '0x8617e340b3d01fa5f11f306f4090fd50e238070d',
];

// Type-level: the minimal create body is a valid PaymentCreateRequest (fields with a `default:` are
// optional in the generated types). `npm run typecheck` fails if that ever regresses.
const MINIMAL = { amount: '100', currency: 'USD' } satisfies PaymentCreateRequest;

let request: Schema;
let field: (name: string) => Schema;

beforeAll(async () => {
  const { document } = await loadContractDocument('service');
  const schemas = (document['components'] as { schemas: Record<string, Schema> }).schemas;
  request = schemas['PaymentCreateRequest'] as Schema;
  field = (name) => {
    const schema = propertiesOf(request)[name];
    if (!schema) throw new Error(`PaymentCreateRequest has no property ${name}`);
    return schema;
  };
});

const problemPaths = (body: Record<string, unknown>): string[] => {
  const result = validateCreatePayment(body, NOW);
  return result.ok ? [] : result.problems.list().map((e) => e.path.join('.'));
};
const refusedAt = (body: Record<string, unknown>, path: string): boolean =>
  problemPaths({ ...MINIMAL, ...body }).some((p) => p === path || p.startsWith(`${path}.`));
const enumOf = (schema: unknown): unknown[] => {
  const values = keywordValue(schema, 'enum');
  if (!Array.isArray(values)) throw new Error('schema has no enum');
  return values;
};
const sorted = <T>(values: readonly T[]): T[] => [...values].sort();
const numberKeyword = (schema: unknown, keyword: string): number => {
  const value = keywordValue(schema, keyword);
  if (typeof value !== 'number') throw new Error(`schema has no numeric ${keyword}`);
  return value;
};
const stringKeyword = (schema: unknown, keyword: string): string => {
  const value = keywordValue(schema, keyword);
  if (typeof value !== 'string') throw new Error(`schema has no string ${keyword}`);
  return value;
};

describe('the create validator follows the contract (PaymentCreateRequest)', () => {
  it('accepts the minimal body', () => {
    expect(problemPaths(MINIMAL)).toEqual([]);
  });

  it('knows exactly the fields of the schema and requires exactly its required ones', () => {
    expect(sorted(CREATE_FIELDS)).toEqual(sorted(Object.keys(propertiesOf(request))));
    expect(request['additionalProperties']).toBe(false);
    expect(problemPaths({ ...MINIMAL, notAField: 1 })).toEqual(['notAField']);
    expect(sorted(problemPaths({}))).toEqual(sorted([...requiredOf(request)]));
  });

  it('title: maxLength', () => {
    const max = numberKeyword(field('title'), 'maxLength');
    expect(TITLE_MAX).toBe(max);
    expect(refusedAt({ title: 'é'.repeat(max) }, 'title')).toBe(false);
    expect(refusedAt({ title: 'é'.repeat(max + 1) }, 'title')).toBe(true);
  });

  it('externalId: minLength, maxLength and pattern', () => {
    const schema = field('externalId');
    const min = numberKeyword(schema, 'minLength');
    const max = numberKeyword(schema, 'maxLength');
    const pattern = new RegExp(stringKeyword(schema, 'pattern'), 'u');
    expect(refusedAt({ externalId: 'a'.repeat(min) }, 'externalId')).toBe(false);
    expect(refusedAt({ externalId: 'a'.repeat(min - 1) }, 'externalId')).toBe(true);
    expect(refusedAt({ externalId: 'a'.repeat(max) }, 'externalId')).toBe(false);
    expect(refusedAt({ externalId: 'a'.repeat(max + 1) }, 'externalId')).toBe(true);
    // Every printable ASCII character, and a few beyond, is allowed exactly when the contract's pattern allows it.
    const probes = [...Array.from({ length: 95 }, (_, i) => String.fromCharCode(32 + i)), 'é', '\u00a0', '\n', '😀'];
    for (const c of probes) {
      const value = `a${c}`;
      expect.soft(refusedAt({ externalId: value }, 'externalId'), `externalId ${JSON.stringify(value)}`).toBe(!pattern.test(value));
      expect.soft(EXTERNAL_ID_PATTERN.test(value), `EXTERNAL_ID_PATTERN on ${JSON.stringify(value)}`).toBe(pattern.test(value));
    }
  });

  it('sellers: minItems and maxItems', () => {
    const schema = field('sellers');
    const max = numberKeyword(schema, 'maxItems');
    const min = numberKeyword(schema, 'minItems');
    expect(MAX_SELLERS).toBe(max);
    expect(SELLER_ADDRESSES.length).toBeGreaterThan(max);
    const sellers = (n: number) => SELLER_ADDRESSES.slice(0, n).map((address) => ({ address, amount: '1' }));
    expect(refusedAt({ sellers: sellers(max) }, 'sellers')).toBe(false);
    expect(refusedAt({ sellers: sellers(max + 1) }, 'sellers')).toBe(true);
    expect(refusedAt({ sellers: sellers(min) }, 'sellers')).toBe(false);
    expect(refusedAt({ sellers: sellers(min - 1) }, 'sellers')).toBe(true);
  });

  it('currency, acceptedChains and acceptedTokens: the enums and the defaults', () => {
    const currencies = enumOf(field('currency'));
    const chains = enumOf(field('acceptedChains')['items']);
    const tokens = enumOf(field('acceptedTokens')['items']);
    expect(sorted(CURRENCY_CODES)).toEqual(sorted(currencies));
    expect(sorted(CHAIN_IDS)).toEqual(sorted(chains));
    expect(sorted(TOKENS)).toEqual(sorted(tokens));
    for (const currency of currencies) expect.soft(refusedAt({ currency, amount: '100000' }, 'currency'), String(currency)).toBe(false);
    expect(refusedAt({ currency: 'XXX' }, 'currency')).toBe(true);
    for (const chain of chains) expect.soft(refusedAt({ acceptedChains: [chain] }, 'acceptedChains'), String(chain)).toBe(false);
    expect(refusedAt({ acceptedChains: [10] }, 'acceptedChains')).toBe(true);
    expect(refusedAt({ acceptedTokens: ['DAI'] }, 'acceptedTokens')).toBe(true);

    const result = validateCreatePayment(MINIMAL, NOW);
    if (!result.ok) throw new Error('the minimal body was refused');
    expect(result.draft.acceptedChains).toEqual(field('acceptedChains')['default']);
    expect(result.draft.acceptedTokens).toEqual(field('acceptedTokens')['default']);
  });

  it('amount, merchantAmount and seller amounts: the decimal pattern and the maximum', () => {
    const amount = field('amount');
    const sellerAmount = propertiesOf(field('sellers')['items'])['amount'];
    for (const schema of [amount, field('merchantAmount'), sellerAmount]) {
      expect(AMOUNT_PATTERN.source).toBe(stringKeyword(schema, 'pattern'));
      expect(AMOUNT_MAXIMUM).toBe(stringKeyword(schema, 'x-maximum'));
    }
    const pattern = new RegExp(stringKeyword(amount, 'pattern'));
    for (const value of ['100', '100.5', '100.05', '1.5', '01', '1.', '1.234', '-1', '1e3', ' 1', '1,5']) {
      expect.soft(refusedAt({ amount: value }, 'amount'), `amount ${value}`).toBe(!pattern.test(value));
    }
    expect(refusedAt({ amount: AMOUNT_MAXIMUM }, 'amount')).toBe(false);
    expect(refusedAt({ amount: `${AMOUNT_MAXIMUM}.01` }, 'amount')).toBe(true);
  });
});
