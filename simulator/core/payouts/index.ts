export type { Payout, PayoutDraft, PayoutStatus } from './types.ts';
export { payoutView } from './types.ts';
export { payoutTransition, openPayout, PAYOUT_EVENT_TYPES } from './payout-state-machine.ts';
export type { PayoutEvent, PayoutEventType, PayoutEffect, PayoutWebhookEvent, PayoutTransitionResult } from './payout-state-machine.ts';
export { validatePayoutInput } from './validate-payout.ts';
export { PayoutService } from './payout-service.ts';
