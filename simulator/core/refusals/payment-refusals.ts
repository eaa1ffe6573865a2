// The messages of the payment refusals, in one place (the payment service and the HTTP layer use them).
export const PAYMENT_REFUSALS = {
  notActive: (status: string) => `Payment is not ACTIVE (status: ${status})`,
  /** A customer path (quote, sign-in, submit) on a payment that can no longer be paid. */
  notPayable: (status: string) => `Payment is not payable (status: ${status})`,
  externalIdInUse: 'A payment with this externalId already exists',
  foreignCursor: 'cursor is not the id of one of your payments',
} as const;
