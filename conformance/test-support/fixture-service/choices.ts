// What the fixture service decides where the spec is silent, and which documented faults it can carry. The
// defaults are the simulator's choices (so the plain fixture passes the suite with nothing to warn about); a
// variant flips one choice to another legal one, a fault breaks one documented statement. The fixture is the
// suite's own small implementation, written from the spec: it shares no code with the simulator.

export interface FixtureChoices {
  /** The array beside nextCursor/hasMore in list responses. */
  listItemKey: string;
  /** Oldest first instead of newest first (ordering is not shown). */
  listOldestFirst: boolean;
  /** Whether GET /v1/payments takes the status and externalId filters (filters are not shown). */
  listFilters: boolean;
  /** Per-currency minimum amount overrides (minimums are not shown). */
  minimums: Record<string, string>;
  /** Body of 401/404/429: the simulator's {statusCode, message, error}, or another shape. */
  otherErrorBody: 'simulator' | 'problem-json';
  /** How POST /v1/auth/api-keys takes the expiry: expiresInDays (the simulator's) or expiresAt (an instant). */
  keyExpiryField: 'expiresInDays' | 'expiresAt';
  /** Unknown fields of the key body: refused (strict, the simulator's) or ignored (lenient). */
  keyBodyLenient: boolean;
  /** The field of the key-creation response that shows the key, and the record's expiry field. */
  keySecretField: string;
  keyRecordExpiryField: string;
  /** Active keys per merchant. */
  keyLimit: number;
  /** The field of POST/PUT /v1/webhooks that takes the URL, and of the responses that show the secret. */
  webhookUrlField: string;
  webhookSecretField: string;
  /** The secret's format: whsec_ + 64 hex (the simulator's), or 64 hex alone. */
  webhookSecretPrefix: boolean;
  /** Whether an API key may send the test event (or only a dashboard session). */
  testEventWithKey: boolean;
  /** The CSV export header: the simulator's 15 columns in its order, or snake_case names in another order. */
  csvHeader: 'simulator' | 'snake-case';
  /** A query parameter the export requires (`{ period: '30d' }`), or none. */
  exportQuery: Record<string, string>;
  /** The analytics summary: the simulator's shape, or a flat one of the fixture's own. */
  summaryShape: 'simulator' | 'flat';
  /** The payout record: the simulator's shape, or snake_case fields. */
  payoutShape: 'simulator' | 'snake-case';
  /** An unsupported chain on the proxy: 404 with the error body (the simulator's), or HTTP 200 with a JSON-RPC error. */
  web3UnknownChain: 'http-404' | 'json-rpc-error';
  /** The ledger record's field naming its payment. */
  ledgerPaymentField: string;
  /** error.code / error.source values of a FAILED payment (not shown). */
  failureCode: string;
  failureSource: string;
  /** Whether PROCESSING payments expire too (not shown; the simulator's do not). */
  processingExpires: boolean;
  /** Rate limit per key and window (not shown). */
  rateLimit: number;
  rateWindowSeconds: number;
}

export const DEFAULT_CHOICES: FixtureChoices = {
  listItemKey: 'data',
  listOldestFirst: false,
  listFilters: true,
  minimums: {},
  otherErrorBody: 'simulator',
  keyExpiryField: 'expiresInDays',
  keyBodyLenient: false,
  keySecretField: 'key',
  keyRecordExpiryField: 'expiresAt',
  keyLimit: 10,
  webhookUrlField: 'url',
  webhookSecretField: 'secret',
  webhookSecretPrefix: true,
  testEventWithKey: true,
  csvHeader: 'simulator',
  exportQuery: {},
  summaryShape: 'simulator',
  payoutShape: 'simulator',
  web3UnknownChain: 'http-404',
  ledgerPaymentField: 'paymentId',
  failureCode: 'TRANSACTION_REVERTED',
  failureSource: 'chain',
  processingExpires: false,
  rateLimit: 6000,
  rateWindowSeconds: 60,
};

/** Documented faults the fixture can carry, each breaking one statement of the spec. */
export type FixtureFault =
  | 'create-answers-200'
  | 'fee-off-when-exact'
  | 'zero-decimal-idr-fraction'
  | 'revoked-key-accepted'
  | 'expired-key-accepted'
  | 'whitelist-ignored'
  | 'key-limit-400'
  | 'foreign-payment-visible'
  | 'list-skips-item'
  | 'signature-wrong-key'
  | 'cancelled-event-dropped'
  | 'retry-schedule-shifted'
  /** Retries leave a minute late while the attempt-time header claims the documented instant (a header is no clock). */
  | 'retry-late-header-on-time'
  | 'rotation-keeps-secret'
  | 'csv-includes-old'
  | 'ledger-misses-settlement'
  | 'failed-without-error'
  | 'cancel-from-processing'
  | 'unknown-payment-400'
  | 'rate-headers-missing-on-errors'
  | 'payout-not-found'
  | 'web3-not-served';

export interface FixtureOptions {
  choices?: Partial<FixtureChoices>;
  faults?: FixtureFault[];
  /** Serve the control API under /control/v1 (the lifecycle checks need it in-process). */
  control?: boolean;
  /**
   * Send the attempt's instant on the fixture's clock in X-Simulator-Attempt-Timestamp (not a documented header).
   * Default: with the control API, whose clock is not the receiver's.
   */
  attemptTimeHeader?: boolean;
  /** The default merchant's key, and a second merchant's (both pk_ + 48 characters). */
  apiKey?: string;
  secondApiKey?: string;
}
