// The create-payment rules of spec §4/§8 as data: for each rule, bodies that must be refused (with
// the field named in errors[].path) and boundary bodies that must be accepted. Limits come from
// CreateRules (the contract's schema); "assumed" cases cite assumed requirements and so only warn.
// Amounts sit at or above the minimum the run established for their currency (the spec does not show
// the minimums), so a body breaks only the rule its case is about.
import type { CreateRules } from '../../generators/create-rules.ts';
import type { CreateBody } from '../../support/payments.ts';

export interface FieldCase {
  name: string;
  requirement: string;
  /** Body builder; `now` is the implementation's clock (ms). */
  body: (now: number) => Record<string, unknown> | string;
  /** Path the 400's errors[] must name; null for accepted cases. */
  invalidPath: string[] | null;
  /** Which field a cross-field or whole-body error names is our choice (assumed). */
  pathAssumed?: boolean;
}

const MIN = 60_000;
const DAY = 86_400_000;
const address = (n: number) => `0x${n.toString(16).padStart(40, '0')}`;
const sellers = (count: number, amount = '1.00') => Array.from({ length: count }, (_, i) => ({ address: address(i + 1), amount }));

/** A whole amount of `code`, `wanted` or the established minimum rounded up, whichever is larger. */
export function wholeAmountAtLeast(wanted: number, minimum: string | null | undefined): number {
  const floor = minimum ? Math.ceil(Number(minimum)) : 0;
  return Math.max(wanted, floor);
}

/** `minimums`: the per-currency minimum the run established (premise payments.minimum-amounts). */
export function fieldCases(rules: CreateRules, minimums: Record<string, string | null> = {}): FieldCase[] {
  const whole = (code: string, wanted: number) => wholeAmountAtLeast(wanted, minimums[code]);
  // The base payment: USD, at least 100 and at least the minimum; seller and merchant amounts are parts of it.
  const b = whole('USD', 100);
  const BASE: CreateBody = { amount: `${b}.00`, currency: 'USD' };
  const money = (n: number) => `${n}.00`;
  const invalid = (name: string, requirement: string, path: string[], patch: Record<string, unknown>, pathAssumed = false): FieldCase => ({
    name,
    requirement,
    invalidPath: path,
    body: () => ({ ...BASE, ...patch }),
    pathAssumed,
  });
  const valid = (name: string, requirement: string, patch: Record<string, unknown>): FieldCase => ({
    name,
    requirement,
    invalidPath: null,
    body: () => ({ ...BASE, ...patch }),
  });
  const jpy = whole('JPY', 1000);
  const idr = whole('IDR', 20000);
  const vnd = whole('VND', 30000);
  const title = rules.titleMaxLength;
  const ext = rules.externalIdMaxLength;
  const uniq = () => Math.random().toString(36).slice(2, 8);
  return [
    // amount (spec §4: 0-2 decimals, maximum, per-currency minimum, zero-decimal currencies)
    invalid('amount with 3 decimals', 'PAY-CREATE-AMOUNT-DECIMALS', ['amount'], { amount: `${b}.001` }),
    invalid('amount not a number', 'PAY-CREATE-AMOUNT-DECIMALS', ['amount'], { amount: 'ten' }),
    invalid('amount negative', 'PAY-CREATE-AMOUNT-GRAMMAR', ['amount'], { amount: '-5.00' }),
    invalid('amount in exponent form', 'PAY-CREATE-AMOUNT-GRAMMAR', ['amount'], { amount: '1e3' }),
    invalid('amount as a JSON number', 'FMT-AMOUNT-DECIMAL-STRING', ['amount'], { amount: 100 }),
    invalid('amount missing', 'PAY-CREATE-AMOUNT-REQUIRED', ['amount'], { amount: undefined }),
    invalid('amount above the maximum', 'PAY-CREATE-AMOUNT-MAX', ['amount'], { amount: '1000000000000.01' }),
    valid('amount at the maximum', 'PAY-CREATE-AMOUNT-MAX', { amount: rules.amountMaximum }),
    valid('amount with 1 decimal', 'PAY-CREATE-AMOUNT-DECIMALS', { amount: `${b}.5` }),
    valid('amount without decimals', 'PAY-CREATE-AMOUNT-DECIMALS', { amount: `${b}` }),
    invalid('amount below the USD minimum', 'PAY-CREATE-AMOUNT-MIN-VALUES', ['amount'], { amount: '0.99' }),
    invalid('amount zero', 'PAY-CREATE-AMOUNT-MIN-VALUES', ['amount'], { amount: '0' }),
    invalid('amount with a leading zero', 'PAY-CREATE-AMOUNT-GRAMMAR', ['amount'], { amount: `0${b}` }),
    invalid('JPY with a fraction', 'PAY-CREATE-AMOUNT-ZERO-DECIMAL', ['amount'], { amount: `${jpy}.5`, currency: 'JPY' }),
    invalid('IDR with a fraction', 'PAY-CREATE-AMOUNT-ZERO-DECIMAL', ['amount'], { amount: `${idr}.25`, currency: 'IDR' }),
    invalid('VND with .00', 'PAY-CREATE-ZERO-DECIMAL-NO-POINT', ['amount'], { amount: `${vnd}.00`, currency: 'VND' }),
    valid('JPY whole amount', 'PAY-CREATE-AMOUNT-ZERO-DECIMAL', { amount: `${jpy}`, currency: 'JPY' }),
    // JPY, IDR and VND are zero-decimal: a minor-unit fraction is refused for each of the three
    invalid('JPY with 2 decimals', 'CUR-ZERO-DECIMAL', ['amount'], { amount: `${jpy}.50`, currency: 'JPY' }),
    invalid('IDR with 1 decimal', 'CUR-ZERO-DECIMAL', ['amount'], { amount: `${idr}.5`, currency: 'IDR' }),
    invalid('VND with 2 decimals', 'CUR-ZERO-DECIMAL', ['amount'], { amount: `${vnd}.50`, currency: 'VND' }),
    valid('IDR whole amount', 'CUR-ZERO-DECIMAL', { amount: `${idr}`, currency: 'IDR' }),
    valid('VND whole amount', 'CUR-ZERO-DECIMAL', { amount: `${vnd}`, currency: 'VND' }),
    // currency
    invalid('currency unknown', 'PAY-CREATE-CURRENCY-ENUM', ['currency'], { currency: 'XXX' }),
    invalid('currency lower case', 'PAY-CREATE-CURRENCY-ENUM', ['currency'], { currency: 'usd' }),
    invalid('currency missing', 'PAY-CREATE-CURRENCY-REQUIRED', ['currency'], { currency: undefined }),
    // title
    invalid(`title of ${title + 1} characters`, 'PAY-CREATE-TITLE-MAX-LENGTH', ['title'], { title: 't'.repeat(title + 1) }),
    valid(`title of ${title} characters`, 'PAY-CREATE-TITLE-MAX-LENGTH', { title: 't'.repeat(title) }),
    invalid('title not a string', 'PAY-CREATE-TITLE-MAX-LENGTH', ['title'], { title: 42 }),
    // externalId
    {
      name: `externalId of ${ext + 1} characters`,
      requirement: 'PAY-CREATE-EXTERNAL-ID-MAX-LENGTH',
      invalidPath: ['externalId'],
      body: () => ({ ...BASE, externalId: `x${uniq()}`.padEnd(ext + 1, 'x') }),
    },
    {
      name: `externalId of ${ext} characters`,
      requirement: 'PAY-CREATE-EXTERNAL-ID-MAX-LENGTH',
      invalidPath: null,
      body: () => ({ ...BASE, externalId: `x${uniq()}`.padEnd(ext, 'y') }),
    },
    invalid('externalId with a space', 'PAY-CREATE-EXTERNAL-ID-CHARSET', ['externalId'], { externalId: 'has space' }),
    invalid('externalId with a slash', 'PAY-CREATE-EXTERNAL-ID-CHARSET', ['externalId'], { externalId: 'a/b' }),
    invalid('externalId with a non-ASCII letter', 'PAY-CREATE-EXTERNAL-ID-CHARSET', ['externalId'], { externalId: 'caf\u00e9' }),
    {
      name: 'externalId with every allowed character class',
      requirement: 'PAY-CREATE-EXTERNAL-ID-CHARSET',
      invalidPath: null,
      body: () => ({ ...BASE, externalId: `aZ09._-${uniq()}` }),
    },
    invalid('externalId empty', 'PAY-EXTERNAL-ID-NON-EMPTY', ['externalId'], { externalId: '' }),
    // acceptedChains / acceptedTokens
    invalid('acceptedChains with a duplicate', 'PAY-ACCEPTED-NON-EMPTY-UNIQUE', ['acceptedChains'], { acceptedChains: [1, 1] }),
    invalid('acceptedChains with an unsupported chain', 'PAY-CREATE-ACCEPTED-CHAINS-SUBSET', ['acceptedChains'], {
      acceptedChains: [1, 10],
    }),
    invalid('acceptedChains as strings', 'PAY-CREATE-ACCEPTED-CHAINS-SUBSET', ['acceptedChains'], { acceptedChains: ['1'] }),
    invalid('acceptedChains empty', 'PAY-ACCEPTED-NON-EMPTY-UNIQUE', ['acceptedChains'], { acceptedChains: [] }),
    valid('acceptedChains subset', 'PAY-CREATE-ACCEPTED-CHAINS-SUBSET', { acceptedChains: [8453, 137] }),
    invalid('acceptedTokens with an unsupported token', 'PAY-CREATE-ACCEPTED-TOKENS-SUBSET', ['acceptedTokens'], {
      acceptedTokens: ['DAI'],
    }),
    valid('acceptedTokens subset', 'PAY-CREATE-ACCEPTED-TOKENS-SUBSET', { acceptedTokens: ['USDT'] }),
    invalid(
      'no existing chain/token pair (Base + USDT)',
      'PAY-ACCEPTED-PAIR-EXISTS',
      ['acceptedTokens'],
      { acceptedChains: [8453], acceptedTokens: ['USDT'] },
      true,
    ),
    // the chain/token table of spec §1, one chain at a time: each listed pair is accepted on its own,
    // and a single-chain payment with the token its chain lacks has no pair (400)
    valid('Ethereum with USDC only', 'CHAIN-ETHEREUM-TOKENS', { acceptedChains: [1], acceptedTokens: ['USDC'] }),
    valid('Ethereum with USDT only', 'CHAIN-ETHEREUM-TOKENS', { acceptedChains: [1], acceptedTokens: ['USDT'] }),
    valid('Arbitrum One with USDC only', 'CHAIN-ARBITRUM-TOKENS', { acceptedChains: [42161], acceptedTokens: ['USDC'] }),
    valid('Arbitrum One with USDT only', 'CHAIN-ARBITRUM-TOKENS', { acceptedChains: [42161], acceptedTokens: ['USDT'] }),
    valid('Base with USDC only', 'CHAIN-BASE-TOKENS', { acceptedChains: [8453], acceptedTokens: ['USDC'] }),
    invalid(
      'Base with USDT only (Base has no USDT)',
      'CHAIN-BASE-TOKENS',
      ['acceptedTokens'],
      { acceptedChains: [8453], acceptedTokens: ['USDT'] },
      true,
    ),
    valid('Polygon with USDC only', 'CHAIN-POLYGON-TOKENS', { acceptedChains: [137], acceptedTokens: ['USDC'] }),
    valid('Polygon with USDT only', 'CHAIN-POLYGON-TOKENS', { acceptedChains: [137], acceptedTokens: ['USDT'] }),
    valid('BNB Smart Chain with USDT only', 'CHAIN-BNB-TOKENS', { acceptedChains: [56], acceptedTokens: ['USDT'] }),
    invalid(
      'BNB Smart Chain with USDC only (BNB has no USDC)',
      'CHAIN-BNB-TOKENS',
      ['acceptedTokens'],
      { acceptedChains: [56], acceptedTokens: ['USDC'] },
      true,
    ),
    // tokens: USDC and USDT are accepted, any other token symbol is refused
    valid('acceptedTokens USDC only', 'PAY-TOKENS-USDC-USDT', { acceptedTokens: ['USDC'] }),
    valid('acceptedTokens USDC and USDT', 'PAY-TOKENS-USDC-USDT', { acceptedTokens: ['USDC', 'USDT'] }),
    invalid('acceptedTokens with another stablecoin (DAI)', 'PAY-TOKENS-USDC-USDT', ['acceptedTokens'], {
      acceptedTokens: ['USDC', 'DAI'],
    }),
    invalid('acceptedTokens with a non-stablecoin (ETH)', 'PAY-TOKENS-USDC-USDT', ['acceptedTokens'], { acceptedTokens: ['ETH'] }),
    // expiresAt (15 minutes to 30 days from now; margins cover request latency)
    {
      name: 'expiresAt 14 minutes from now',
      requirement: 'PAY-CREATE-EXPIRES-AT-WINDOW',
      invalidPath: ['expiresAt'],
      body: (now) => ({ ...BASE, expiresAt: new Date(now + 14 * MIN).toISOString() }),
    },
    {
      name: 'expiresAt in the past',
      requirement: 'PAY-CREATE-EXPIRES-AT-WINDOW',
      invalidPath: ['expiresAt'],
      body: (now) => ({ ...BASE, expiresAt: new Date(now - DAY).toISOString() }),
    },
    {
      name: 'expiresAt 30 days and 1 hour from now',
      requirement: 'PAY-CREATE-EXPIRES-AT-WINDOW',
      invalidPath: ['expiresAt'],
      body: (now) => ({ ...BASE, expiresAt: new Date(now + 30 * DAY + 60 * MIN).toISOString() }),
    },
    {
      name: 'expiresAt 16 minutes from now',
      requirement: 'PAY-CREATE-EXPIRES-AT-WINDOW',
      invalidPath: null,
      body: (now) => ({ ...BASE, expiresAt: new Date(now + 16 * MIN).toISOString() }),
    },
    {
      name: 'expiresAt 29 days from now',
      requirement: 'PAY-CREATE-EXPIRES-AT-WINDOW',
      invalidPath: null,
      body: (now) => ({ ...BASE, expiresAt: new Date(now + 29 * DAY).toISOString() }),
    },
    invalid('expiresAt not a date-time', 'PAY-CREATE-EXPIRES-AT-WINDOW', ['expiresAt'], { expiresAt: 'tomorrow' }),
    // sellers
    invalid(`${rules.sellersMax + 1} sellers`, 'PAY-CREATE-SELLERS-MAX', ['sellers'], { sellers: sellers(rules.sellersMax + 1) }),
    valid(`${rules.sellersMax} sellers`, 'PAY-CREATE-SELLERS-MAX', { sellers: sellers(rules.sellersMax) }),
    invalid('seller amount with 3 decimals', 'PAY-SELLER-FIELD-AMOUNT', ['sellers', '0', 'amount'], {
      sellers: [{ address: address(1), amount: '1.001' }],
    }),
    invalid('seller address not an address', 'PAY-SELLER-ADDRESS-FORMAT', ['sellers', '0', 'address'], {
      sellers: [{ address: 'not-an-address', amount: '1.00' }],
    }),
    invalid(
      'sellers summing above the amount',
      'PAY-SELLERS-SUM-EXCEEDS-400',
      ['sellers'],
      {
        sellers: [
          { address: address(1), amount: money(b - 40) },
          { address: address(2), amount: '50.00' },
        ],
      },
      true,
    ),
    invalid(
      'duplicate seller addresses',
      'PAY-SELLER-ADDRESS-DUPLICATE-400',
      ['sellers'],
      {
        sellers: [
          { address: address(1), amount: '1.00' },
          { address: address(1), amount: '2.00' },
        ],
      },
      true,
    ),
    invalid('seller address with a bad EIP-55 checksum', 'PAY-SELLER-ADDRESS-CHECKSUM', ['sellers', '0', 'address'], {
      sellers: [{ address: '0xa0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48', amount: '1.00' }],
    }),
    valid('seller address with a valid EIP-55 checksum', 'PAY-SELLER-ADDRESS-CHECKSUM', {
      sellers: [{ address: '0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48', amount: '1.00' }],
    }),
    invalid('sellers empty array', 'PAY-SELLERS-NON-EMPTY', ['sellers'], { sellers: [] }),
    // merchantAmount
    invalid(
      'merchantAmount + sellers != amount',
      'PAY-CREATE-MERCHANT-AMOUNT-SUM',
      ['merchantAmount'],
      { sellers: sellers(1, '10.00'), merchantAmount: money(b - 20) },
      true,
    ),
    valid('merchantAmount + sellers = amount', 'PAY-CREATE-MERCHANT-AMOUNT-SUM', {
      sellers: sellers(1, '10.00'),
      merchantAmount: money(b - 10),
    }),
    invalid('merchantAmount without sellers differing from amount', 'PAY-MERCHANT-AMOUNT-NO-SELLERS', ['merchantAmount'], {
      merchantAmount: money(b - 10),
    }),
    invalid('merchantAmount with 3 decimals', 'PAY-CREATE-MERCHANT-AMOUNT-DECIMALS', ['merchantAmount'], {
      sellers: sellers(1, '10.00'),
      merchantAmount: `${b - 11}.999`,
    }),
    // body as a whole
    invalid('unknown field', 'PAY-CREATE-UNKNOWN-FIELDS-400', ['colour'], { colour: 'blue' }, true),
    {
      name: 'body is not JSON',
      requirement: 'PAY-CREATE-BODY-NOT-OBJECT-400',
      invalidPath: [],
      pathAssumed: true,
      body: () => '{"amount": "10",',
    },
    { name: 'body is a JSON array', requirement: 'PAY-CREATE-BODY-NOT-OBJECT-400', invalidPath: [], pathAssumed: true, body: () => '[]' },
  ];
}
