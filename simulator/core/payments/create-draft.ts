// From a create body to a priced draft: validation (validate-create.ts) then pricing
// (pricing.ts), each a rule the composition root may replace.
import { priceCreateRequest, type PriceCreateRequest } from './pricing.ts';
import type { PaymentDraft } from './types.ts';
import { validateCreateRequest, type CreateRequestValidation } from './validate-create.ts';
import type { Problems } from '../validation/problems.ts';

export type ValidateCreateRequest = (body: unknown, now: number) => CreateRequestValidation;

export interface CreateRules {
  validateCreate: ValidateCreateRequest;
  price: PriceCreateRequest;
}

export const CREATE_RULES: CreateRules = { validateCreate: validateCreateRequest, price: priceCreateRequest };

export type CreateValidation = { ok: true; draft: PaymentDraft } | { ok: false; problems: Problems };

export function validateCreatePayment(body: unknown, now: number, rules: CreateRules = CREATE_RULES): CreateValidation {
  const checked = rules.validateCreate(body, now);
  return checked.ok ? { ok: true, draft: rules.price(checked.request) } : checked;
}
