// Payment shapes and small helpers shared by checks: create with the main or another merchant,
// field lists of the create and retrieve views (docs/decisions.md, spec §2).
import type { Payment, PaymentCreateRequest, PaymentStatus, Seller } from '@stablepay/contract/types';
import type { HttpClient, HttpResponse } from '../http/client.ts';

export type { Payment, PaymentStatus, Seller };
/**
 * A create request as the suite builds it: the contract's shape, with the enum fields widened to
 * the plain strings and numbers the suite reads from fixtures (and probes beyond the enums with).
 */
export type CreateBody = Omit<PaymentCreateRequest, 'currency' | 'acceptedChains' | 'acceptedTokens'> & {
  currency: string;
  acceptedChains?: number[];
  acceptedTokens?: string[];
};

export const STATUSES: PaymentStatus[] = ['ACTIVE', 'PROCESSING', 'SUCCESSFUL', 'FAILED', 'EXPIRED', 'CANCELLED'];
export const TERMINAL: PaymentStatus[] = ['SUCCESSFUL', 'FAILED', 'EXPIRED', 'CANCELLED'];

export const CREATE_VIEW_FIELDS = [
  'id',
  'status',
  'amount',
  'currency',
  'title',
  'externalId',
  'acceptedChains',
  'acceptedTokens',
  'serviceFee',
  'merchantFee',
  'sellers',
  'paymentUrl',
  'expiresAt',
  'createdAt',
] as const;

export const AFTER_INITIATION_FIELDS = ['chainId', 'token', 'exchangeRate', 'amountToken', 'serviceFeeToken', 'merchantFeeToken'] as const;

export const RETRIEVE_VIEW_FIELDS = [
  ...CREATE_VIEW_FIELDS,
  ...AFTER_INITIATION_FIELDS,
  'gasActual',
  'txHash',
  'error',
  'paidAt',
  'updatedAt',
] as const;

export async function createPayment(api: HttpClient, body: CreateBody): Promise<HttpResponse & { payment: Payment }> {
  const response = await api.post('/v1/payments', body);
  return Object.assign(response, { payment: response.json as Payment });
}

export async function getPayment(api: HttpClient, id: string): Promise<HttpResponse & { payment: Payment }> {
  const response = await api.get(`/v1/payments/${id}`);
  return Object.assign(response, { payment: response.json as Payment });
}

export async function cancelPayment(api: HttpClient, id: string): Promise<HttpResponse & { payment: Payment }> {
  const response = await api.delete(`/v1/payments/${id}`);
  return Object.assign(response, { payment: response.json as Payment });
}

/** A unique, valid externalId (charset [A-Za-z0-9._-], <= 36). */
export function uniqueExternalId(prefix = 'cf'): string {
  return `${prefix}-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 10)}`.slice(0, 36);
}

/** Errors array of a 400 body, or [] when absent or malformed. */
export function errorPaths(body: unknown): string[][] {
  const errors = (body as { errors?: unknown })?.errors;
  if (!Array.isArray(errors)) return [];
  return errors.map((e) => (Array.isArray((e as { path?: unknown }).path) ? (e as { path: unknown[] }).path.map(String) : []));
}

/** Whether some errors[] entry names `field` (its path starts with it). */
export function namesField(body: unknown, field: string[]): boolean {
  return errorPaths(body).some((path) => field.every((segment, i) => path[i] === segment));
}

export function describe(response: HttpResponse): string {
  return `${response.status} ${response.text.slice(0, 400)}`;
}
