// Faults of the payment lifecycle and of what the payment routes answer: wrappers of the
// transition table, the "(none) -> ACTIVE" row, the route operations and the retrieve view.
import { Conflict } from '../core/refusals/refusals.ts';
import { LIVE_STATUSES, PAYMENT_REFUSALS, type PaymentRepository, type PaymentView, type RetrieveView } from '../core/payments/index.ts';
import type { PaymentOperations } from '../edge/v1/payment-routes.ts';
import type { openPayment, PaymentEventType, transition } from '../core/payments/state-machine.ts';
import type { PaymentStatus } from '../core/payments/types.ts';
import { isPlainObject } from '../core/validation/problems.ts';

type Transition = typeof transition;

/**
 * A row the table must not have: `event` in `status` is handled as the table handles it in
 * `borrowedFrom` (`cancel-from-processing`, `expired-then-successful`).
 */
export const extraRow =
  (status: PaymentStatus, event: PaymentEventType, borrowedFrom: PaymentStatus) =>
  (base: Transition): Transition =>
  (payment, e, now) =>
    payment.status === status && e.type === event ? base({ ...payment, status: borrowedFrom }, e, now) : base(payment, e, now);

/** `payment-created-on-api-create`: payment.created is emitted for every create. */
export const createdEventAlways =
  (base: typeof openPayment): typeof openPayment =>
  (input, now) => {
    const opened = base(input, now);
    if (opened.effects.some((e) => e.kind === 'emit' && e.event === 'payment.created')) return opened;
    return { ...opened, effects: [...opened.effects, { kind: 'emit', event: 'payment.created' }] };
  };

const delegate = (base: PaymentOperations): PaymentOperations => ({
  create: (merchantId, body, origin) => base.create(merchantId, body, origin),
  get: (merchantId, id) => base.get(merchantId, id),
  cancel: (merchantId, id) => base.cancel(merchantId, id),
  list: (merchantId, filter) => base.list(merchantId, filter),
});

/** `cancel-returns-stale-payment`: DELETE answers with the payment as read before the cancel. */
export const staleCancel = (base: PaymentOperations): PaymentOperations => ({
  ...delegate(base),
  cancel(merchantId, id) {
    const before = base.get(merchantId, id);
    base.cancel(merchantId, id);
    return before;
  },
});

/** The database round trip between the uniqueness lookup and the insert. */
const ROUND_TRIP_MS = 5;

/**
 * The other half of `external-id-check-then-insert`: uniqueness is looked up first and the
 * payment inserted after an await, so concurrent creates all pass the lookup.
 */
export const checkThenInsert =
  (store: () => PaymentRepository) =>
  (base: PaymentOperations): PaymentOperations => ({
    ...delegate(base),
    async create(merchantId, body, origin) {
      const externalId = isPlainObject(body) && typeof body.externalId === 'string' ? body.externalId : undefined;
      const held =
        externalId !== undefined &&
        store()
          .list(merchantId, { externalId, limit: 1000 })
          ?.items.some((p) => LIVE_STATUSES.includes(p.status));
      if (held) throw new Conflict(PAYMENT_REFUSALS.externalIdInUse);
      await new Promise((resolve) => setTimeout(resolve, ROUND_TRIP_MS));
      return base.create(merchantId, body, origin);
    },
  });

/** `updated-at-missing`: the retrieve view leaves out updatedAt. */
export const withoutUpdatedAt =
  (base: RetrieveView): RetrieveView =>
  (payment, payUrl) => {
    const { updatedAt: _left, ...view } = base(payment, payUrl);
    return view as PaymentView;
  };
