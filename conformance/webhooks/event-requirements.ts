// The catalogue requirement each payment event names (spec §6): one map for every check that judges payment events.
export const PAYMENT_EVENT_REQUIREMENT: Readonly<Record<string, string>> = {
  'payment.processing': 'WH-EVENT-PAYMENT-PROCESSING',
  'payment.completed': 'WH-EVENT-PAYMENT-COMPLETED',
  'payment.failed': 'WH-EVENT-PAYMENT-FAILED',
  'payment.expired': 'WH-EVENT-PAYMENT-EXPIRED',
  'payment.cancelled': 'WH-EVENT-PAYMENT-CANCELLED',
};
