// Which seam each named fault wraps, and how. The record is keyed by every fault name, so a
// fault defined without a wrapper (or the reverse) does not compile.
import type { PaymentRepository } from '../core/payments/index.ts';
import { floatFees, sellerAmountsBeforeFee, titleTruncated, truncatedZeroDecimalFee, zeroDecimalOnlyJpy } from './create-faults.ts';
import { rateLimitHeadersOnlyOnSuccess, revokedKeysAccepted, unknownKeyForbidden, wallClock, withoutRetryAfter } from './edge-faults.ts';
import type { FaultName } from './fault-definitions.ts';
import { checkThenInsert, createdEventAlways, extraRow, staleCancel, withoutUpdatedAt } from './lifecycle-faults.ts';
import type { FaultWrappers } from './seams.ts';
import { AnyOwnerStore, CursorSkipsItemStore, HeldAfterCancelStore, UncheckedInsertStore } from './store-faults.ts';
import {
  bodyRestampedOnRetry,
  missingAttempts,
  retryShift,
  successCountedAsFailure,
  signatureWithoutTimestamp,
  signedBodyOnly,
  timestampInMs,
  timestampSkew,
  wrongKey,
} from './webhook-faults.ts';

export const STALE_TIMESTAMP_SECONDS = -400;
export const RETRY_SHIFT_MS = 30_000;
export const SKIPPED_ATTEMPT = 4;
export const SLACK_TIMEOUT_MS = 30_000;
/** The 3-digit limit grammar stops at 999 anyway. */
export const UNBOUNDED_LIST_LIMIT = 999;

/** Called once per simulator, so wrappers that keep state (the held externalIds) start empty. */
export const FAULT_WRAPPERS: Record<FaultName, () => FaultWrappers> = {
  'fee-truncated-zero-decimal': () => ({ pricing: truncatedZeroDecimalFee }),
  'fee-binary-float': () => ({ pricing: floatFees }),
  'seller-amounts-before-fee': () => ({ pricing: sellerAmountsBeforeFee }),
  'zero-decimal-only-jpy': () => ({ 'validate-create': zeroDecimalOnlyJpy }),
  'title-truncated-not-refused': () => ({ 'validate-create': titleTruncated }),
  'external-id-check-then-insert': () => {
    let store: PaymentRepository | undefined;
    const storeOf = (): PaymentRepository => {
      if (!store) throw new Error('external-id-check-then-insert: the payment store is wrapped before the payment operations');
      return store;
    };
    return { 'payment-store': (base) => (store = new UncheckedInsertStore(base)), 'payment-operations': checkThenInsert(storeOf) };
  },
  'external-id-held-after-cancel': () => ({ 'payment-store': (base) => new HeldAfterCancelStore(base) }),
  'cancel-from-processing': () => ({ transition: extraRow('PROCESSING', 'merchant.cancelled', 'ACTIVE') }),
  'cancel-returns-stale-payment': () => ({ 'payment-operations': staleCancel }),
  'updated-at-missing': () => ({ 'payment-view': withoutUpdatedAt }),
  'expired-then-successful': () => ({ transition: extraRow('EXPIRED', 'chain.confirmed', 'PROCESSING') }),
  'list-cursor-skips-item': () => ({ 'payment-store': (base) => new CursorSkipsItemStore(base) }),
  'list-limit-unbounded': () => ({ 'list-limit': () => UNBOUNDED_LIST_LIMIT }),
  'revoked-key-accepted': () => ({ 'key-lookup': revokedKeysAccepted }),
  'key-expiry-wall-clock': () => ({ 'key-expiry-clock': wallClock }),
  'unknown-key-403': () => ({ 'require-auth': unknownKeyForbidden }),
  'other-merchant-payment-visible': () => ({ 'payment-store': (base) => new AnyOwnerStore(base) }),
  'rate-limit-headers-only-on-success': () => ({ 'rate-limit': rateLimitHeadersOnlyOnSuccess }),
  'retry-after-missing': () => ({ 'rate-limit': withoutRetryAfter }),
  'payment-created-on-api-create': () => ({ 'open-payment': createdEventAlways }),
  'signature-over-body-only': () => ({ 'webhook-request': signedBodyOnly }),
  'signature-header-without-timestamp': () => ({ 'webhook-request': signatureWithoutTimestamp }),
  'timestamp-in-ms': () => ({ 'webhook-request': timestampInMs }),
  'timestamp-stale': () => ({ 'webhook-request': timestampSkew(STALE_TIMESTAMP_SECONDS) }),
  'signature-wrong-key': () => ({ 'webhook-request': wrongKey }),
  'retry-schedule-shifted': () => ({ 'webhook-schedule': retryShift(RETRY_SHIFT_MS) }),
  'retry-attempt-missing': () => ({ 'webhook-schedule': missingAttempts([SKIPPED_ATTEMPT]) }),
  'webhook-body-changes-on-retry': () => ({ 'webhook-request': bodyRestampedOnRetry }),
  'webhook-timeout-30s': () => ({ 'webhook-timeout-ms': () => SLACK_TIMEOUT_MS }),
  'retries-after-success': () => ({ 'webhook-send': successCountedAsFailure }),
};
