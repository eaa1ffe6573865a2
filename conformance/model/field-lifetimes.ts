// How long each Payment field keeps its value, in one table: the single source the invariant
// tracker (invariants.ts) judges every observation by. Keys are the properties of the contract's
// Payment schema (field-lifetimes.test.ts proves the table covers exactly them); the requirement
// of a field is the catalogue's field statement `PAY-FIELD-<FIELD>` (the test proves each exists),
// unless the catalogue states a more specific lifetime rule for it.
//
// Why each lifetime follows from the catalogue:
// - fixed: the field is given or derived at create (amount, fees, terms, expiry, creation time) and
//   no operation of the spec changes it; acceptedChains "stays exactly as requested".
// - set-once: null until the event its statement names ("set when the customer initiates", "set
//   after payment", "the locked rate"), then that value for good.
// - transition: only the state machine moves it (status).
// - last-update: updatedAt is "the last update time": it moves when, and only when, the payment does.
// Terminal payments never change at all (PAY-STATE-TERMINAL-FINAL, assumed), updatedAt included.
import type { Payment } from '../support/payments.ts';

export type Lifetime = 'fixed' | 'set-once' | 'transition' | 'last-update';
export type PaymentField = keyof Payment;

export const FIELD_LIFETIMES: Record<PaymentField, Lifetime> = {
  id: 'fixed',
  status: 'transition',
  amount: 'fixed',
  currency: 'fixed',
  title: 'fixed',
  externalId: 'fixed',
  acceptedChains: 'fixed',
  acceptedTokens: 'fixed',
  serviceFee: 'fixed',
  merchantFee: 'fixed',
  sellers: 'fixed',
  paymentUrl: 'fixed',
  chainId: 'set-once',
  token: 'set-once',
  exchangeRate: 'set-once',
  amountToken: 'set-once',
  serviceFeeToken: 'set-once',
  merchantFeeToken: 'set-once',
  gasActual: 'set-once',
  txHash: 'set-once',
  error: 'set-once',
  expiresAt: 'fixed',
  paidAt: 'set-once',
  createdAt: 'fixed',
  updatedAt: 'last-update',
};

/** Catalogue statements more specific than the field's own. */
const SPECIFIC_REQUIREMENT: Partial<Record<PaymentField, string>> = {
  acceptedChains: 'PAY-ACCEPTED-STORED-AS-REQUESTED',
};

/** Fields whose values are decimal strings: compared by value, so "10.5" and "10.50" are one value. */
export const DECIMAL_FIELDS: ReadonlySet<PaymentField> = new Set([
  'amount',
  'serviceFee',
  'merchantFee',
  'exchangeRate',
  'amountToken',
  'serviceFeeToken',
  'merchantFeeToken',
  'gasActual',
]);

/** Fields holding instants: compared as instants. */
export const INSTANT_FIELDS: ReadonlySet<PaymentField> = new Set(['expiresAt', 'paidAt', 'createdAt', 'updatedAt']);

/** Arrays whose order the spec does not fix: compared as sets. */
export const UNORDERED_FIELDS: ReadonlySet<PaymentField> = new Set(['acceptedChains', 'acceptedTokens']);

export function fieldRequirement(field: PaymentField): string {
  return SPECIFIC_REQUIREMENT[field] ?? `PAY-FIELD-${field.replace(/[A-Z]/g, (c) => `-${c}`).toUpperCase()}`;
}

export const TERMINAL_REQUIREMENT = 'PAY-STATE-TERMINAL-FINAL';
export const FORWARD_ONLY_REQUIREMENT = 'PAY-STATE-FORWARD-ONLY';
export const TOKEN_IDENTITY_REQUIREMENTS = ['PAY-TOKEN-AMOUNT-CEIL', 'PAY-MERCHANT-FEE-TOKEN-REMAINDER'];

/** Every requirement the tracker can report: a check that feeds it observations cites these. */
export const INVARIANT_REQUIREMENTS: string[] = [
  ...new Set([
    ...(Object.keys(FIELD_LIFETIMES) as PaymentField[]).filter((f) => FIELD_LIFETIMES[f] !== 'transition').map(fieldRequirement),
    TERMINAL_REQUIREMENT,
    FORWARD_ONLY_REQUIREMENT,
    ...TOKEN_IDENTITY_REQUIREMENTS,
  ]),
];
