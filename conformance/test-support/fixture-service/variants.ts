// For each choice the spec leaves open (fixtures/not-shown.json), a fixture service making another legal choice,
// the checks that meet it, and a documented fault to inject beside it with the check and requirement that must
// catch it. conformance/premises/not-shown.test.ts runs each twice: the choice alone must fail nothing documented,
// the choice with the fault must still fail that requirement.
import type { ImplementationProfile } from '../../premises/profile.ts';
import type { FixtureChoices, FixtureFault } from './choices.ts';

export interface Variant {
  /** Ids of fixtures/not-shown.json this variant covers. */
  notShown: string[];
  /** The legal choice, in words. */
  legal: string;
  choices: Partial<FixtureChoices>;
  /** What the implementer declares (the profile), when the choice cannot be observed. */
  profile?: ImplementationProfile;
  control: boolean;
  checks: string[];
  /** Checks that must have run (pass or warn) in the clean run: a variant that only makes checks unexercised proves nothing. */
  exercised: string[];
  fault: FixtureFault;
  caughtBy: { check: string; requirement: string };
}

const TEN_TIMES_MINIMUMS = {
  AED: '40',
  ARS: '10000',
  BRL: '50',
  EUR: '10',
  GBP: '10',
  IDR: '160000',
  ILS: '40',
  JPY: '1500',
  MXN: '200',
  NGN: '16000',
  PHP: '600',
  THB: '350',
  USD: '10',
  VND: '250000',
};

export const VARIANTS: Variant[] = [
  {
    notShown: ['failure-values', 'error-code-values'],
    legal: 'a FAILED payment carries error {code: "E_REVERT", source: "blockchain"}',
    choices: { failureCode: 'E_REVERT', failureSource: 'blockchain' },
    control: true,
    checks: ['lifecycle.state-fields'],
    exercised: ['lifecycle.state-fields'],
    fault: 'failed-without-error',
    caughtBy: { check: 'lifecycle.state-fields', requirement: 'PAY-FIELD-ERROR' },
  },
  {
    notShown: ['webhook-record', 'webhook-payloads'],
    legal: 'the endpoint is configured with {endpoint} and shows its secret as signingSecret; the profile declares the bodies',
    choices: { webhookUrlField: 'endpoint', webhookSecretField: 'signingSecret' },
    profile: { webhooks: { createBody: { endpoint: '{url}' }, updateBody: { endpoint: '{url}', enabled: '{enabled}' } } },
    control: true,
    checks: ['webhooks.signature', 'webhooks.test-event', 'webhook-config.endpoint-records', 'webhook-config.rotate-and-deliveries'],
    exercised: ['webhooks.signature', 'webhooks.test-event', 'webhook-config.endpoint-records', 'webhook-config.rotate-and-deliveries'],
    fault: 'signature-wrong-key',
    caughtBy: { check: 'webhooks.signature', requirement: 'WH-SIGN-HMAC' },
  },
  {
    notShown: ['key-record', 'key-payloads'],
    legal: 'a key is created with {name, expiresAt}, shown as apiKey, its expiry as validUntil; the profile declares the bodies',
    choices: { keyExpiryField: 'expiresAt', keySecretField: 'apiKey', keyRecordExpiryField: 'validUntil' },
    profile: { apiKeys: { expiringBody: { name: '{name}', expiresAt: '{expiresAt}' }, neverExpiringBody: { name: '{name}' } } },
    control: true,
    checks: ['auth.revoked-key', 'auth.expired-key', 'api-keys.management', 'api-keys.limit-and-whitelist'],
    exercised: ['auth.revoked-key', 'auth.expired-key', 'api-keys.management', 'api-keys.limit-and-whitelist'],
    fault: 'revoked-key-accepted',
    caughtBy: { check: 'auth.revoked-key', requirement: 'AUTH-401-MISSING-INVALID' },
  },
  {
    notShown: ['ledger-analytics-records'],
    legal: 'ledger records name their payment payment_id; the analytics summary has a flat shape of its own',
    choices: { ledgerPaymentField: 'payment_id', summaryShape: 'flat' },
    control: true,
    checks: ['ledger.one-per-settlement', 'analytics.summary'],
    exercised: ['ledger.one-per-settlement', 'analytics.summary'],
    fault: 'ledger-misses-settlement',
    caughtBy: { check: 'ledger.one-per-settlement', requirement: 'TXN-LEDGER-ENDPOINT' },
  },
  {
    notShown: ['payout-record', 'payout-endpoints'],
    legal: 'the payout record has snake_case fields',
    choices: { payoutShape: 'snake-case' },
    control: true,
    checks: ['payouts.lifecycle'],
    exercised: ['payouts.lifecycle'],
    fault: 'payout-not-found',
    caughtBy: { check: 'payouts.lifecycle', requirement: 'PAYOUT-GET-ENDPOINT' },
  },
  {
    notShown: ['other-transitions'],
    legal: 'a PROCESSING payment expires at expiresAt too',
    choices: { processingExpires: true },
    control: true,
    checks: ['lifecycle.state-fields'],
    exercised: ['lifecycle.state-fields'],
    fault: 'cancel-from-processing',
    caughtBy: { check: 'lifecycle.state-fields', requirement: 'PAY-CANCEL-ONLY-ACTIVE' },
  },
  {
    notShown: ['list-items', 'list-item-key'],
    legal: 'lists hold their items under `items`, oldest first, and GET /v1/payments takes no filters',
    choices: { listItemKey: 'items', listOldestFirst: true, listFilters: false },
    control: true,
    checks: [
      'pagination.page-size',
      'pagination.limit-bounds',
      'pagination.cursor-walk',
      'auth.merchant-isolation',
      'versioning.path-prefix-v1',
      'external-id.duplicate-active',
      'api-keys.management',
    ],
    exercised: [
      'pagination.page-size',
      'pagination.limit-bounds',
      'pagination.cursor-walk',
      'auth.merchant-isolation',
      'versioning.path-prefix-v1',
      'external-id.duplicate-active',
      'api-keys.management',
    ],
    fault: 'list-skips-item',
    caughtBy: { check: 'pagination.cursor-walk', requirement: 'LIST-CURSOR-PAGINATED' },
  },
  {
    notShown: ['test-event-rule'],
    legal: 'the test event is a dashboard action: an API key gets 403',
    choices: { testEventWithKey: false },
    control: true,
    checks: ['webhooks.test-event', 'webhook-config.endpoint-records', 'webhook-config.rotate-and-deliveries', 'webhooks.signature'],
    exercised: ['webhook-config.endpoint-records', 'webhook-config.rotate-and-deliveries', 'webhooks.signature'],
    fault: 'signature-wrong-key',
    caughtBy: { check: 'webhooks.signature', requirement: 'WH-SIGN-HMAC' },
  },
  {
    notShown: ['analytics-ledger-payloads', 'csv-columns'],
    legal: 'the export needs ?period=30d and has snake_case columns in another order; the profile declares the query',
    choices: { csvHeader: 'snake-case', exportQuery: { period: '30d' } },
    profile: { analytics: { exportQuery: { period: '30d' } } },
    control: true,
    checks: ['analytics.export-csv'],
    exercised: ['analytics.export-csv'],
    fault: 'csv-includes-old',
    caughtBy: { check: 'analytics.export-csv', requirement: 'ANL-EXPORT-CSV-30D' },
  },
  {
    notShown: ['web3-shapes'],
    legal: 'an unsupported chain answers HTTP 200 with a JSON-RPC error',
    choices: { web3UnknownChain: 'json-rpc-error' },
    control: false,
    checks: ['web3.json-rpc-proxy'],
    exercised: ['web3.json-rpc-proxy'],
    fault: 'web3-not-served',
    caughtBy: { check: 'web3.json-rpc-proxy', requirement: 'WEB3-PROXY-ENDPOINT' },
  },
  {
    notShown: ['other-error-bodies'],
    legal: '401, 404 and 429 answer with a problem+json-like body {type, title, status, detail}',
    choices: { otherErrorBody: 'problem-json' },
    control: true,
    checks: [
      'auth.missing-credentials',
      'auth.unknown-key',
      'lifecycle.cancel',
      'rate-limit.limit-exceeded',
      'web3.json-rpc-proxy',
      'response.conformance',
    ],
    exercised: [
      'auth.missing-credentials',
      'auth.unknown-key',
      'lifecycle.cancel',
      'rate-limit.limit-exceeded',
      'web3.json-rpc-proxy',
      'response.conformance',
    ],
    fault: 'unknown-payment-400',
    caughtBy: { check: 'lifecycle.cancel', requirement: 'ERR-404-PAYMENT-NOT-FOUND' },
  },
  {
    notShown: ['rate-limit-values'],
    legal: '1000 requests per 10-second window',
    choices: { rateLimit: 1000, rateWindowSeconds: 10 },
    control: false,
    checks: ['rate-limit.header-semantics', 'rate-limit.headers-every-response', 'auth.missing-credentials'],
    exercised: ['rate-limit.header-semantics', 'rate-limit.headers-every-response', 'auth.missing-credentials'],
    fault: 'rate-headers-missing-on-errors',
    caughtBy: { check: 'rate-limit.headers-every-response', requirement: 'RL-HEADERS-EVERY-RESPONSE' },
  },
  {
    notShown: ['minimum-amounts'],
    legal: "every currency has ten times the simulator's minimum (USD 10.00, JPY 1500, ...)",
    choices: { minimums: TEN_TIMES_MINIMUMS },
    control: true,
    checks: [
      'create.valid-requests',
      'create.field-rules',
      'fees.split-properties',
      'external-id.concurrent-burst',
      'lifecycle.cancel',
      'pagination.page-size',
      'ledger.one-per-settlement',
    ],
    exercised: [
      'create.valid-requests',
      'create.field-rules',
      'fees.split-properties',
      'external-id.concurrent-burst',
      'lifecycle.cancel',
      'pagination.page-size',
      'ledger.one-per-settlement',
    ],
    fault: 'fee-off-when-exact',
    caughtBy: { check: 'fees.split-properties', requirement: 'PAY-FEE-SERVICE-RATE' },
  },
  {
    notShown: ['secret-format'],
    legal: 'the webhook secret is 64 hex characters without a prefix',
    choices: { webhookSecretPrefix: false },
    control: true,
    checks: ['webhook-config.rotate-and-deliveries', 'webhook-config.endpoint-records', 'webhooks.signature'],
    exercised: ['webhook-config.rotate-and-deliveries', 'webhook-config.endpoint-records', 'webhooks.signature'],
    fault: 'rotation-keeps-secret',
    caughtBy: { check: 'webhook-config.rotate-and-deliveries', requirement: 'WH-SECRET-ROTATE' },
  },
];

/** The open choices no variant can vary through the API the suite uses, and why. */
export const WITHOUT_VARIANT: Record<string, string> = {
  'other-views':
    'the suite reads payments only through the merchant view GET /v1/payments/{id} documents; another view is not reachable with an API key',
  'session-security': 'the suite authenticates with API keys only; session tokens are a dashboard matter the API does not expose',
  'versioning-rules': 'the suite judges /v1 only (VER-PATH-PREFIX-V1); what a later version does is outside any run against /v1',
};
