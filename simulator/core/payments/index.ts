// Payments: the transition table, validation, storage, the service that carries out effects, routes.
export * from './types.ts';
export { transition, openPayment, accepts, PAYMENT_EVENT_TYPES } from './state-machine.ts';
export type {
  PaymentEvent,
  PaymentEventType,
  PaymentEffect,
  PaymentWebhookEvent,
  Refusal,
  RefusalReason,
  TransitionResult,
} from './state-machine.ts';
export { validateCreateRequest, CREATE_FIELDS, EXTERNAL_ID_PATTERN } from './validate-create.ts';
export type { CreateRequest, CreateRequestValidation } from './validate-create.ts';
export { priceCreateRequest, type PriceCreateRequest } from './pricing.ts';
export {
  validateCreatePayment,
  CREATE_RULES,
  type CreateRules,
  type CreateValidation,
  type ValidateCreateRequest,
} from './create-draft.ts';
export { PaymentStore } from './payment-store.ts';
export type { InsertResult, PaymentListFilter, PaymentRepository, TimeRange } from './payment-store.ts';
export {
  PaymentService,
  PAYMENT_RULES,
  DEFAULT_PAYMENT_TTL_MS,
  type PaymentChangeListener,
  type PaymentRules,
  type SettlementRecorder,
} from './payment-service.ts';
export { requireTokenAmount, settlementSplit, type SettlementWallets } from './settlement-split.ts';
export { PAYMENT_REFUSALS } from '../refusals/payment-refusals.ts';
export { createView, retrieveView, paymentUrl } from './views.ts';
export type { RetrieveView } from './views.ts';
export type { PaymentCreateView, Payment as PaymentView } from '@stablepay/contract/types';
