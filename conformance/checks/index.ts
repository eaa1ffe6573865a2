// Every check of the suite, in run order. Cross-cutting checks (tag `cross-cutting`) are moved to
// the end by the runner, since they read what the others recorded.
import type { Check } from '../check.ts';
import { expiredKey } from './auth/expired-key.ts';
import { malformedCredentials } from './auth/malformed-credentials.ts';
import { merchantIsolation } from './auth/merchant-isolation.ts';
import { missingCredentials } from './auth/missing-credentials.ts';
import { revokedKey } from './auth/revoked-key.ts';
import { unknownKey } from './auth/unknown-key.ts';
import { createFieldRules } from './create/field-rules.ts';
import { createValidRequests } from './create/valid-requests.ts';
import { concurrentBurst } from './external-id/concurrent-burst.ts';
import { duplicateActive } from './external-id/duplicate-active.ts';
import { reuseAfterExpiryOrFailure, uniqueWhileLive } from './external-id/live-states.ts';
import { reuseAfterCancel } from './external-id/reuse-after-cancel.ts';
import { feeSplit } from './fees/fee-split.ts';
import { cancelFlow } from './lifecycle/cancel.ts';
import { expiryByClock } from './lifecycle/expiry.ts';
import { stateFields } from './lifecycle/state-fields.ts';
import { stateModel } from './lifecycle/state-model.ts';
import { cursorWalk } from './pagination/cursor-walk.ts';
import { limitBounds } from './pagination/limit-bounds.ts';
import { pageSize } from './pagination/page-size.ts';
import { rateLimitHeaders } from './rate-limit/headers-every-response.ts';
import { limitExceeded } from './rate-limit/limit-exceeded.ts';
import { responseConformance } from './response/response-conformance.ts';
import { amountFormat } from './format/amounts.ts';
import { idFormat } from './format/ids.ts';
import { timestampFormat } from './format/timestamps.ts';
import { pathPrefixV1 } from './versioning/path-prefix.ts';
import { rateLimitHeaderSemantics } from './rate-limit/header-semantics.ts';
import { controlResponseConformance } from './control/response-conformance.ts';
import { lifecycleEvents } from './webhooks/lifecycle-events.ts';
import { noCreatedEvent } from './webhooks/no-created-event.ts';
import { createdEventSweep } from './webhooks/created-event-sweep.ts';
import { retrySchedule } from './webhooks/retry-schedule.ts';
import { paymentInvariants } from './history/payment-invariants.ts';
import { eventsAgainstHistory } from './history/events-against-history.ts';
import { webhookSignature } from './webhooks/signature.ts';
import { slowReceiver } from './webhooks/slow-receiver.ts';
import { testEvent } from './webhooks/test-event.ts';
import { analyticsExport } from './analytics/export.ts';
import { analyticsSummary } from './analytics/summary.ts';
import { keyLimits } from './api-keys/limits.ts';
import { keyManagement } from './api-keys/management.ts';
import { ledgerTransactions } from './ledger/transactions.ts';
import { payoutLifecycle } from './payouts/payout-lifecycle.ts';
import { rotateAndDeliveries } from './webhook-config/rotate-and-deliveries.ts';
import { webhookEndpointRecords } from './webhook-config/endpoint-records.ts';
import { web3Proxy } from './web3/proxy.ts';
import { payEachPair } from './customer/pay-each-pair.ts';
import { payEmbedded } from './customer/pay-embedded.ts';
import { splitFiveSellers } from './customer/split-five-sellers.ts';
import { failedByRevert } from './customer/failed-by-revert.ts';
import { cancelWhileOpen, expiryWhileOpen } from './customer/ended-while-open.ts';
import { customerSettles } from './customer/settles.ts';

export const ALL_CHECKS: Check[] = [
  missingCredentials,
  malformedCredentials,
  unknownKey,
  revokedKey,
  expiredKey,
  merchantIsolation,
  createValidRequests,
  createFieldRules,
  feeSplit,
  duplicateActive,
  concurrentBurst,
  reuseAfterCancel,
  // The first check that pays as the customer: a checkout that cannot take money fails here, once.
  customerSettles,
  uniqueWhileLive,
  reuseAfterExpiryOrFailure,
  cancelFlow,
  expiryByClock,
  stateFields,
  stateModel,
  pageSize,
  limitBounds,
  cursorWalk,
  webhookSignature,
  noCreatedEvent,
  testEvent,
  lifecycleEvents,
  retrySchedule,
  slowReceiver,
  webhookEndpointRecords,
  rotateAndDeliveries,
  payoutLifecycle,
  keyManagement,
  keyLimits,
  analyticsSummary,
  analyticsExport,
  ledgerTransactions,
  web3Proxy,
  payEachPair,
  payEmbedded,
  splitFiveSellers,
  failedByRevert,
  cancelWhileOpen,
  expiryWhileOpen,
  pathPrefixV1,
  rateLimitHeaderSemantics,
  limitExceeded,
  rateLimitHeaders,
  responseConformance,
  timestampFormat,
  idFormat,
  amountFormat,
  controlResponseConformance,
  createdEventSweep,
  paymentInvariants,
  eventsAgainstHistory,
];
