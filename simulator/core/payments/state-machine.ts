// The payment lifecycle as a pure transition table (decisions.md, "Transitions"). `transition`
// never touches the clock, storage or network: it returns the next record plus the effects the
// caller must carry out (webhook events, expiry timers, ledger entry). Anything not in the table
// is refused, so the flow is forward only and terminal states are final.
import type { TokenSymbol } from '@stablepay/contract/chain-table';
import { CHAIN_IDS, isPairSupported, TOKENS } from '@stablepay/contract/chain-table';
import { currencyOrThrow } from '../reference-data/currencies.ts';
import { formatUnits, toUnits } from '../money/decimal.ts';
import { computeTokenAmounts, RATE_SCALE, TOKEN_SCALE } from '../money/token-amounts.ts';
import { lifecycle, move, refuse, type LifecycleTable, type Refusal, type Step } from '../support/lifecycle-table.ts';
import type { Payment, PaymentDraft, PaymentError, PaymentOrigin, PaymentStatus, SettlementTransfer } from './types.ts';

export type PaymentEvent =
  | { type: 'customer.submitted'; chainId: number; token: TokenSymbol; exchangeRate: string }
  | {
      type: 'chain.confirmed';
      txHash: string;
      gasActual: string;
      /** The block's time (on-chain settlement); the clock's now when absent. Never later than now. */
      paidAt?: number;
      /** The transfers the transaction made (on-chain settlement); the ledger derives them when absent. */
      transfers?: readonly SettlementTransfer[];
    }
  | { type: 'chain.failed'; error: PaymentError }
  | { type: 'bundler.rejected'; error: PaymentError }
  | { type: 'clock.expired' }
  | { type: 'merchant.cancelled' };

export type PaymentEventType = PaymentEvent['type'];
export const PAYMENT_EVENT_TYPES: readonly PaymentEventType[] = [
  'customer.submitted',
  'chain.confirmed',
  'chain.failed',
  'bundler.rejected',
  'clock.expired',
  'merchant.cancelled',
];

export type PaymentWebhookEvent =
  | 'payment.created'
  | 'payment.processing'
  | 'payment.completed'
  | 'payment.failed'
  | 'payment.expired'
  | 'payment.cancelled';

export type PaymentEffect =
  | { kind: 'emit'; event: PaymentWebhookEvent }
  | { kind: 'schedule-expiry'; at: number }
  | { kind: 'cancel-expiry' }
  | { kind: 'record-settlement' };

export type { Refusal, RefusalReason } from '../support/lifecycle-table.ts';

export type TransitionResult = { ok: true; payment: Payment; effects: PaymentEffect[] } | { ok: false; refusal: Refusal };

type Handler<E extends PaymentEvent> = (payment: Payment, event: E, now: number) => Step<Payment, PaymentEffect>;

const fail = refuse;
const moved = move<Payment, PaymentEffect>;

const submit: Handler<Extract<PaymentEvent, { type: 'customer.submitted' }>> = (payment, event, now) => {
  if (now >= payment.expiresAt) return fail('expired', 'Payment has expired');
  if (!payment.acceptedChains.includes(event.chainId) || !payment.acceptedTokens.includes(event.token)) {
    return fail('pair-not-accepted', `Chain ${event.chainId} with ${event.token} is not accepted by this payment`);
  }
  if (!isPairSupported(event.chainId, event.token)) {
    return fail('pair-unsupported', `${event.token} is not available on chain ${event.chainId}`);
  }
  const { minorUnits } = currencyOrThrow(payment.currency);
  const rateMicro = toUnits(event.exchangeRate, RATE_SCALE);
  const tokens = computeTokenAmounts({
    amount: toUnits(payment.amount, minorUnits),
    serviceFee: toUnits(payment.serviceFee, minorUnits),
    sellers: (payment.sellers ?? []).map((s) => toUnits(s.amount, minorUnits)),
    minorUnits,
    rateMicro,
  });
  const token = (units: bigint): string => formatUnits(units, TOKEN_SCALE);
  return moved(
    payment,
    {
      status: 'PROCESSING',
      chainId: event.chainId,
      token: event.token,
      exchangeRate: formatUnits(rateMicro, RATE_SCALE),
      amountToken: token(tokens.amountToken),
      serviceFeeToken: token(tokens.serviceFeeToken),
      merchantFeeToken: token(tokens.merchantFeeToken),
      sellersToken: payment.sellers ? tokens.sellersToken.map(token) : null,
    },
    now,
    [{ kind: 'cancel-expiry' }, { kind: 'emit', event: 'payment.processing' }],
  );
};

const fromProcessingFailure: Handler<Extract<PaymentEvent, { type: 'chain.failed' | 'bundler.rejected' }>> = (payment, event, now) =>
  moved(payment, { status: 'FAILED', error: { ...event.error } }, now, [{ kind: 'emit', event: 'payment.failed' }]);

/** The table: for each state, the events it accepts. Missing entries are refusals. */
const TABLE: LifecycleTable<PaymentStatus, Payment, PaymentEvent, PaymentEffect> = {
  ACTIVE: {
    'customer.submitted': submit,
    'clock.expired': (payment, _event, now) =>
      now < payment.expiresAt
        ? fail('not-yet-expired', 'Payment has not reached expiresAt')
        : // Expired at expiresAt, whenever the timer ran: every process sharing a sandbox makes the same record (a
          // virtual clock fires the timer at that instant anyway; a real one, or libfaketime's jump, later).
          moved(payment, { status: 'EXPIRED' }, Math.max(payment.expiresAt, payment.updatedAt), [
            { kind: 'emit', event: 'payment.expired' },
          ]),
    'merchant.cancelled': (payment, _event, now) =>
      moved(payment, { status: 'CANCELLED' }, now, [{ kind: 'cancel-expiry' }, { kind: 'emit', event: 'payment.cancelled' }]),
  },
  PROCESSING: {
    'chain.confirmed': (payment, event, now) =>
      moved(
        payment,
        {
          status: 'SUCCESSFUL',
          txHash: event.txHash,
          gasActual: event.gasActual,
          // A block timestamp has whole seconds: one mined in the second the payment was created would read paid before
          // created. Never before createdAt, never after the merchant's now.
          paidAt: Math.min(Math.max(event.paidAt ?? now, payment.createdAt), now),
          settlementTransfers: event.transfers ? event.transfers.map((t) => ({ ...t })) : null,
        },
        now,
        [{ kind: 'emit', event: 'payment.completed' }, { kind: 'record-settlement' }],
      ),
    'chain.failed': fromProcessingFailure,
    'bundler.rejected': fromProcessingFailure,
  },
  SUCCESSFUL: {},
  FAILED: {},
  EXPIRED: {},
  CANCELLED: {},
};

const PAYMENTS = lifecycle(TABLE, 'payment');

export function transition(payment: Payment, event: PaymentEvent, now: number): TransitionResult {
  const step = PAYMENTS.step(payment, event, now);
  return step.ok ? { ok: true, payment: step.next, effects: step.effects } : step;
}

/** Whether `status` accepts `eventType` at all (guards such as expiry aside). */
export function accepts(status: PaymentStatus, eventType: PaymentEventType): boolean {
  return PAYMENTS.accepts(status, eventType);
}

export interface OpenPaymentInput {
  id: string;
  merchantId: string;
  origin: PaymentOrigin;
  draft: PaymentDraft;
  defaultTtlMs: number;
}

// A payment's lists never change, and most payments accept every chain and token: those share one frozen list
// each instead of keeping copies of their own (a payment is kept for the simulator's life).
const ALL_CHAINS: readonly number[] = Object.freeze([...CHAIN_IDS]);
const ALL_TOKENS: readonly TokenSymbol[] = Object.freeze([...TOKENS]);

/** `list` itself as a payment keeps it: `all` when it has the same items in the same order, else a copy. */
function keptList<T>(list: readonly T[], all: readonly T[]): readonly T[] {
  if (list.length !== all.length) return [...list];
  for (let i = 0; i < list.length; i += 1) if (list[i] !== all[i]) return [...list];
  return all;
}

/** The "(none) -> ACTIVE" row: a new payment, its expiry timer, and payment.created only for dashboard creates. */
export function openPayment(input: OpenPaymentInput, now: number): { payment: Payment; effects: PaymentEffect[] } {
  const { draft } = input;
  const expiresAt = draft.expiresAt ?? now + input.defaultTtlMs;
  const payment: Payment = {
    id: input.id,
    merchantId: input.merchantId,
    origin: input.origin,
    status: 'ACTIVE',
    amount: draft.amount,
    currency: draft.currency,
    title: draft.title,
    externalId: draft.externalId,
    acceptedChains: keptList(draft.acceptedChains, ALL_CHAINS),
    acceptedTokens: keptList(draft.acceptedTokens, ALL_TOKENS),
    serviceFee: draft.serviceFee,
    merchantFee: draft.merchantFee,
    sellers: draft.sellers ? draft.sellers.map((s) => ({ ...s })) : null,
    chainId: null,
    token: null,
    exchangeRate: null,
    amountToken: null,
    serviceFeeToken: null,
    merchantFeeToken: null,
    sellersToken: null,
    settlementTransfers: null,
    gasActual: null,
    txHash: null,
    error: null,
    expiresAt,
    paidAt: null,
    createdAt: now,
    updatedAt: now,
  };
  const effects: PaymentEffect[] = [{ kind: 'schedule-expiry', at: expiresAt }];
  if (input.origin === 'dashboard') effects.push({ kind: 'emit', event: 'payment.created' });
  return { payment, effects };
}
