// The one handwritten entry point to the generated contract types: import contract types from here,
// never from contract/generated/*.
import type { components, operations, paths, webhooks } from './generated/openapi.ts';
import type { components as controlComponents, operations as controlOperations, paths as controlPaths } from './generated/control-api.ts';

export type { components, operations, paths, webhooks };
export type { controlComponents, controlOperations, controlPaths };

type Schemas = components['schemas'];
type ControlSchemas = controlComponents['schemas'];

// Enumerations
export type ChainId = Schemas['ChainId'];
export type Token = Schemas['Token'];
export type Currency = Schemas['Currency'];
export type PaymentStatus = Schemas['PaymentStatus'];
export type WebhookEventType = Schemas['WebhookEventType'];

// Payments
export type Payment = Schemas['Payment'];
export type PaymentCreateView = Schemas['PaymentCreateView'];
export type PaymentCreateRequest = Schemas['PaymentCreateRequest'];
export type CancelledPayment = Schemas['CancelledPayment'];
export type Seller = Schemas['Seller'];
export type SellerInput = Schemas['SellerInput'];
export type PaymentFailure = Schemas['PaymentFailure'];
export type PaymentList = Schemas['PaymentList'];

/** The list envelope of every list endpoint, for any item type. */
export type ListEnvelope<T> = Omit<PaymentList, 'data'> & { data: T[] };

// Errors
export type ErrorBody = Schemas['ErrorBody'];
export type FieldError = Schemas['FieldError'];
export type ValidationErrorBody = Schemas['ValidationError'];

// Webhook configuration and deliveries
export type WebhookEndpoint = Schemas['WebhookEndpoint'];
export type WebhookEndpointWithSecret = Schemas['WebhookEndpointWithSecret'];
export type WebhookEndpointCreateRequest = Schemas['WebhookEndpointCreateRequest'];
export type WebhookEndpointUpdateRequest = Schemas['WebhookEndpointUpdateRequest'];
export type WebhookDelivery = Schemas['WebhookDelivery'];
export type WebhookDeliveryStatus = Schemas['WebhookDeliveryStatus'];
export type WebhookDeliveryAttempt = Schemas['WebhookDeliveryAttempt'];
export type WebhookDeliveryChaos = Schemas['WebhookDeliveryChaos'];
export type WebhookDeliveryList = Schemas['WebhookDeliveryList'];

// Webhook payloads
export type WebhookPayload = Schemas['WebhookPayload'];
export type PaymentEventPayload = Schemas['PaymentEventPayload'];
export type PayoutEventPayload = Schemas['PayoutEventPayload'];
export type TestEventPayload = Schemas['TestEvent'];
export type PaymentEventType = PaymentEventPayload['event'];
export type PayoutEventType = PayoutEventPayload['event'];

// API keys
export type ApiKey = Schemas['ApiKey'];
export type ApiKeyWithSecret = Schemas['ApiKeyWithSecret'];
export type ApiKeyCreateRequest = Schemas['ApiKeyCreateRequest'];
export type ApiKeyStatus = Schemas['ApiKeyStatus'];
export type ApiKeyList = Schemas['ApiKeyList'];

// Analytics, ledger, payouts
export type Analytics = Schemas['Analytics'];
export type Transaction = Schemas['Transaction'];
export type TransactionTransfer = Schemas['TransactionTransfer'];
export type TransactionList = Schemas['TransactionList'];
export type Payout = Schemas['Payout'];

// Web3 proxy
export type JsonRpcRequest = Schemas['JsonRpcRequest'];
export type JsonRpcRequestBody = Schemas['JsonRpcRequestBody'];
export type JsonRpcResponse = Schemas['JsonRpcResponse'];
export type JsonRpcResponseBody = Schemas['JsonRpcResponseBody'];
export type JsonRpcSuccess = Schemas['JsonRpcSuccess'];
export type JsonRpcFailure = Schemas['JsonRpcFailure'];
export type JsonRpcError = Schemas['JsonRpcError'];

// Control API
export type ClockState = ControlSchemas['ClockState'];
export type ClockAdvanceRequest = ControlSchemas['ClockAdvanceRequest'];
export type ClockAdvanceResult = ControlSchemas['ClockAdvanceResult'];
export type ResetRequest = ControlSchemas['ResetRequest'];
export type ResetResult = ControlSchemas['ResetResult'];
export type ClockSetRequest = ControlSchemas['ClockSetRequest'];
export type TestClock = ControlSchemas['TestClock'];
export type MerchantResetResult = ControlSchemas['MerchantResetResult'];
export type PairSelection = ControlSchemas['PairSelection'];
export type FailRequest = ControlSchemas['FailRequest'];
export type MerchantCreateRequest = ControlSchemas['MerchantCreateRequest'];
export type Merchant = ControlSchemas['Merchant'];
export type MerchantCreated = ControlSchemas['MerchantCreated'];
export type ControlApiKeyCreateRequest = ControlSchemas['ControlApiKeyCreateRequest'];
export type ExchangeRates = ControlSchemas['ExchangeRates'];
export type ExchangeRatesUpdate = ControlSchemas['ExchangeRatesUpdate'];
export type RateLimitSettings = ControlSchemas['RateLimitSettings'];
export type PayoutCreateRequest = ControlSchemas['PayoutCreateRequest'];
export type Health = ControlSchemas['Health'];
export type ListenerCreateRequest = ControlSchemas['ListenerCreateRequest'];
export type ControlListener = ControlSchemas['ControlListener'];
export type ControlListenerList = ControlSchemas['ControlListenerList'];
export type ControlListenerTestResult = ControlSchemas['ControlListenerTestResult'];

// Requirement catalogue
export type { Requirement, RequirementLevel } from './catalogue.ts';
