// Payments: the transition table, validation, storage, the service that carries out effects, routes.
export * from './types.ts';
export { transition, openPayment, accepts, PAYMENT_EVENT_TYPES } from './state-machine.ts';
export type { PaymentEvent, PaymentEventType, PaymentEffect, PaymentWebhookEvent, Refusal, RefusalReason, TransitionResult } from './state-machine.ts';
export { validateCreatePayment, CREATE_FIELDS, EXTERNAL_ID_PATTERN } from './validate-create.ts';
export { PaymentStore } from './payment-store.ts';
export { PaymentService, DEFAULT_PAYMENT_TTL_MS } from './payment-service.ts';
export { createView, retrieveView, paymentUrl } from './views.ts';
export type { PaymentCreateView, Payment as PaymentView } from '../../contract/types.ts';
export { paymentRoutes } from './routes.ts';
