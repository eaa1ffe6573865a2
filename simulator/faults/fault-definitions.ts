// The named faults the simulator can be told to commit (DESIGN §2, issue "The suite proves its
// strength"). Each is one realistic implementer's bug, carried out by a wrapper of one seam
// (fault-wrappers.ts) that the composition root puts in place only when the fault is named;
// `breaks` names the catalogue requirements it violates, so the mutation self-test can derive
// which checks must catch it.

/** The level of the catalogue requirements a fault breaks (DESIGN §2). */
export type FaultLevel = 'documented' | 'assumed';

export interface FaultDefinition {
  name: string;
  description: string;
  /** Catalogue requirement IDs (contract/requirements.yaml) the fault violates. */
  breaks: readonly string[];
  /** `assumed` faults break only assumed requirements: the suite catches them under --strict only. */
  level: FaultLevel;
  /** The fault is observable only through the 11 s slow-receiver check. */
  slow?: boolean;
}

export const FAULT_DEFINITIONS = [
  // money
  {
    name: 'fee-truncated-zero-decimal',
    description:
      'JPY/IDR/VND: serviceFee reported by integer division (truncated) while the shares were split from the rounded fee, so the parts miss the amount by one minor unit',
    breaks: ['PAY-FEE-SUM-IDENTITY', 'PAY-FEE-SERVICE-RATE'],
    level: 'documented',
  },
  {
    name: 'fee-binary-float',
    description:
      'Fees computed with JS numbers (amount * 0.005, Math.round per share): binary rounding and per-share rounding lose or add a minor unit',
    breaks: ['PAY-FEE-SUM-IDENTITY', 'PAY-FEE-SELLERS-PROPORTIONAL', 'PAY-FEE-ROUND-HALF-UP'],
    level: 'documented',
  },
  {
    name: 'seller-amounts-before-fee',
    description: "sellers[].amount echoes the requested gross amount instead of the amount after the seller's share of the fee",
    breaks: ['PAY-FEE-SELLER-AMOUNT-AFTER-FEE', 'PAY-FEE-SELLERS-PROPORTIONAL', 'PAY-FEE-SUM-IDENTITY'],
    level: 'documented',
  },
  // create validation
  {
    name: 'zero-decimal-only-jpy',
    description: 'The zero-decimal rule is coded for JPY only: IDR and VND accept fractional amounts such as "20000.25"',
    breaks: ['PAY-CREATE-AMOUNT-ZERO-DECIMAL'],
    level: 'documented',
  },
  {
    name: 'title-truncated-not-refused',
    description: 'A title over 255 characters is silently cut to 255 (VARCHAR(255) semantics) instead of being refused with 400',
    breaks: ['PAY-CREATE-TITLE-MAX-LENGTH'],
    level: 'documented',
  },
  // externalId
  {
    name: 'external-id-check-then-insert',
    description:
      'externalId uniqueness is checked, then the payment inserted after an await: concurrent creates with one externalId all succeed',
    breaks: ['PAY-CREATE-EXTERNAL-ID-UNIQUE-LIVE'],
    level: 'documented',
  },
  {
    name: 'external-id-held-after-cancel',
    description:
      "The live-externalId index is released on FAILED and EXPIRED but not on CANCELLED: reusing a cancelled payment's externalId gives 409",
    breaks: ['PAY-CREATE-EXTERNAL-ID-REUSABLE'],
    level: 'documented',
  },
  // lifecycle
  {
    name: 'cancel-from-processing',
    description: 'The transition table lets DELETE cancel a PROCESSING payment (the customer has already paid)',
    breaks: ['PAY-CANCEL-ONLY-ACTIVE'],
    level: 'documented',
  },
  {
    name: 'cancel-returns-stale-payment',
    description: 'DELETE answers with the payment as read before the cancel (status ACTIVE) instead of the updated one',
    breaks: ['PAY-CANCEL-RESPONSE'],
    level: 'documented',
  },
  {
    name: 'updated-at-missing',
    description: 'The retrieve view leaves out updatedAt',
    breaks: ['PAY-FIELD-UPDATED-AT'],
    level: 'documented',
  },
  {
    name: 'expired-then-successful',
    description: 'A late on-chain confirmation turns an EXPIRED payment SUCCESSFUL (terminal state changes)',
    breaks: ['PAY-STATE-TERMINAL-FINAL'],
    level: 'assumed',
  },
  // pagination
  {
    name: 'list-cursor-skips-item',
    description: 'The next page starts one past the item after the cursor (off by one): one payment at every page boundary is never listed',
    breaks: ['LIST-CURSOR-IS-LAST-ID', 'LIST-CURSOR-PAGINATED'],
    level: 'documented',
  },
  {
    name: 'list-limit-unbounded',
    description: 'The 100 cap on limit is dropped (up to 999 accepted): a page can hold more than 100 items',
    breaks: ['LIST-LIMIT-MAX'],
    level: 'documented',
  },
  // auth
  {
    name: 'revoked-key-accepted',
    description: 'Key lookup ignores revokedAt: a revoked key keeps working',
    breaks: ['AUTH-401-MISSING-INVALID'],
    level: 'documented',
  },
  {
    name: 'key-expiry-wall-clock',
    description:
      'Key expiry is compared with the wall clock instead of the service clock: a key past its expiresAt (service time) is still accepted',
    breaks: ['AUTH-401-MISSING-INVALID', 'AUTH-KEY-IP-WHITELIST-EXPIRY'],
    level: 'documented',
  },
  {
    name: 'unknown-key-403',
    description: 'A well-formed pk_ key that was never issued gets 403 Forbidden instead of 401',
    breaks: ['AUTH-401-MISSING-INVALID', 'ERR-401-ALL'],
    level: 'documented',
  },
  {
    name: 'other-merchant-payment-visible',
    description:
      "GET and DELETE /v1/payments/{id} look the id up without the merchant: another merchant's payment is returned instead of 404",
    breaks: ['ERR-404-PAYMENT-NOT-FOUND'],
    level: 'documented',
  },
  // rate limit
  {
    name: 'rate-limit-headers-only-on-success',
    description: 'X-RateLimit-* headers are added after the handler returned, so error responses (4xx thrown as exceptions) lack them',
    breaks: ['RL-HEADERS-EVERY-RESPONSE'],
    level: 'documented',
  },
  {
    name: 'retry-after-missing',
    description: '429 responses carry the X-RateLimit-* headers but no Retry-After',
    breaks: ['RL-RETRY-AFTER'],
    level: 'assumed',
  },
  // webhooks
  {
    name: 'payment-created-on-api-create',
    description: 'payment.created is emitted for every create, API-key creates included',
    breaks: ['PAY-STATE-CREATE-NO-CREATED-EVENT', 'WH-EVENT-PAYMENT-CREATED'],
    level: 'documented',
  },
  {
    name: 'signature-over-body-only',
    description: 'v1 is the HMAC of the raw body alone, without "<timestamp>."',
    breaks: ['WH-SIGN-HMAC'],
    level: 'documented',
  },
  {
    name: 'signature-header-without-timestamp',
    description: 'X-Service-Signature is "v1=<hex>" with no t= part',
    breaks: ['WH-HEADER-SIGNATURE', 'WH-SIGN-PARSE'],
    level: 'documented',
  },
  {
    name: 'timestamp-in-ms',
    description: 'X-Service-Timestamp and t= are Unix milliseconds instead of seconds (Date.now())',
    breaks: ['WH-HEADER-TIMESTAMP', 'WH-SIGN-TOLERANCE'],
    level: 'documented',
  },
  {
    name: 'timestamp-stale',
    description: 'The signed timestamp is taken from a cached clock 400 s behind: every signature is outside the 300 s tolerance',
    breaks: ['WH-SIGN-TOLERANCE'],
    level: 'documented',
  },
  {
    name: 'signature-wrong-key',
    description: 'Deliveries are signed with a key other than the endpoint secret',
    breaks: ['WH-SIGN-HMAC'],
    level: 'documented',
  },
  {
    name: 'retry-schedule-shifted',
    description: 'Every retry delay is 30 s longer than the documented schedule (1 m 30 s, 5 m 30 s, ...)',
    breaks: [
      'WH-RETRY-ATTEMPT-2',
      'WH-RETRY-ATTEMPT-3',
      'WH-RETRY-ATTEMPT-4',
      'WH-RETRY-ATTEMPT-5',
      'WH-RETRY-ATTEMPT-6',
      'WH-RETRY-ATTEMPT-7',
    ],
    level: 'documented',
  },
  {
    name: 'retry-attempt-missing',
    description: 'Attempt 4 is skipped (neither sent nor recorded): only 6 attempts reach the receiver',
    breaks: ['WH-RETRY-TOTAL-ATTEMPTS', 'WH-RETRY-ATTEMPT-4'],
    level: 'documented',
  },
  {
    name: 'webhook-body-changes-on-retry',
    description: 'The payload is re-serialised with a fresh timestamp on every retry',
    breaks: ['WH-BODY-IDENTICAL'],
    level: 'assumed',
  },
  {
    name: 'webhook-timeout-30s',
    description: 'The delivery timeout is 30 s instead of 10 s: a receiver answering after 11 s counts as a success',
    breaks: ['WH-DELIVERY-TIMEOUT-10S'],
    level: 'documented',
    slow: true,
  },
  {
    name: 'retries-after-success',
    description: 'A 2xx answer is recorded as a failed attempt: the delivery goes on with its retries after the receiver accepted it',
    breaks: ['WH-DELIVERY-SUCCESS-2XX'],
    level: 'documented',
    slow: true,
  },
] as const satisfies readonly FaultDefinition[];

export type FaultName = (typeof FAULT_DEFINITIONS)[number]['name'];

export const FAULT_NAMES: readonly FaultName[] = FAULT_DEFINITIONS.map((f) => f.name);
