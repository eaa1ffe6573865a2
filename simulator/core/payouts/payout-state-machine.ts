// The payout lifecycle as a pure transition table, mirroring the payment one: forward only,
// terminal states final, every transition emits its payout.* event.
import type { TokenSymbol } from '@stablepay/contract/chain-table';
import { isPairSupported } from '@stablepay/contract/chain-table';
import { currencyOrThrow } from '../reference-data/currencies.ts';
import { formatUnits, toUnits } from '../money/decimal.ts';
import { fiatToToken, RATE_SCALE, TOKEN_SCALE } from '../money/token-amounts.ts';
import type { PaymentError } from '../payments/types.ts';
import { lifecycle, move, refuse, type LifecycleTable, type Refusal } from '../support/lifecycle-table.ts';
import type { Payout, PayoutDraft, PayoutStatus } from './types.ts';

export type PayoutEvent =
  | { type: 'payer.submitted'; chainId: number; token: TokenSymbol; exchangeRate: string }
  | { type: 'chain.confirmed'; txHash: string }
  | { type: 'chain.failed'; error: PaymentError }
  | { type: 'clock.expired' }
  | { type: 'merchant.cancelled' };

export type PayoutEventType = PayoutEvent['type'];
export const PAYOUT_EVENT_TYPES: readonly PayoutEventType[] = [
  'payer.submitted',
  'chain.confirmed',
  'chain.failed',
  'clock.expired',
  'merchant.cancelled',
];

export type PayoutWebhookEvent =
  | 'payout.created'
  | 'payout.processing'
  | 'payout.completed'
  | 'payout.failed'
  | 'payout.expired'
  | 'payout.cancelled';

export type PayoutEffect =
  | { kind: 'emit'; event: PayoutWebhookEvent }
  | { kind: 'schedule-expiry'; at: number }
  | { kind: 'cancel-expiry' };

export type PayoutTransitionResult = { ok: true; payout: Payout; effects: PayoutEffect[] } | { ok: false; refusal: Refusal };

const fail = refuse;
const moved = move<Payout, PayoutEffect>;

const TABLE: LifecycleTable<PayoutStatus, Payout, PayoutEvent, PayoutEffect> = {
  ACTIVE: {
    'payer.submitted': (payout, event, now) => {
      if (now >= payout.expiresAt) return fail('expired', 'Payout has expired');
      if (!isPairSupported(event.chainId, event.token))
        return fail('pair-unsupported', `${event.token} is not available on chain ${event.chainId}`);
      const { minorUnits } = currencyOrThrow(payout.currency);
      const rateMicro = toUnits(event.exchangeRate, RATE_SCALE);
      const amountToken = fiatToToken(toUnits(payout.amount, minorUnits), minorUnits, rateMicro);
      return moved(
        payout,
        {
          status: 'PROCESSING',
          chainId: event.chainId,
          token: event.token,
          exchangeRate: formatUnits(rateMicro, RATE_SCALE),
          amountToken: formatUnits(amountToken, TOKEN_SCALE),
        },
        now,
        [{ kind: 'cancel-expiry' }, { kind: 'emit', event: 'payout.processing' }],
      );
    },
    'clock.expired': (payout, _event, now) =>
      now < payout.expiresAt
        ? fail('not-yet-expired', 'Payout has not reached expiresAt')
        : // Expired at expiresAt, whenever the timer ran (as a payment's expiry, state-machine.ts).
          moved(payout, { status: 'EXPIRED' }, Math.max(payout.expiresAt, payout.updatedAt), [{ kind: 'emit', event: 'payout.expired' }]),
    'merchant.cancelled': (payout, _event, now) =>
      moved(payout, { status: 'CANCELLED' }, now, [{ kind: 'cancel-expiry' }, { kind: 'emit', event: 'payout.cancelled' }]),
  },
  PROCESSING: {
    'chain.confirmed': (payout, event, now) =>
      moved(payout, { status: 'SUCCESSFUL', txHash: event.txHash, paidAt: now }, now, [{ kind: 'emit', event: 'payout.completed' }]),
    'chain.failed': (payout, event, now) =>
      moved(payout, { status: 'FAILED', error: { ...event.error } }, now, [{ kind: 'emit', event: 'payout.failed' }]),
  },
  SUCCESSFUL: {},
  FAILED: {},
  EXPIRED: {},
  CANCELLED: {},
};

const PAYOUTS = lifecycle(TABLE, 'payout');

export function payoutTransition(payout: Payout, event: PayoutEvent, now: number): PayoutTransitionResult {
  const step = PAYOUTS.step(payout, event, now);
  return step.ok ? { ok: true, payout: step.next, effects: step.effects } : step;
}

/** "(none) -> ACTIVE": payouts are dashboard-created, so payout.created is always emitted. */
export function openPayout(
  input: { id: string; merchantId: string; draft: PayoutDraft; defaultTtlMs: number },
  now: number,
): { payout: Payout; effects: PayoutEffect[] } {
  const expiresAt = input.draft.expiresAt ?? now + input.defaultTtlMs;
  const payout: Payout = {
    id: input.id,
    merchantId: input.merchantId,
    status: 'ACTIVE',
    amount: input.draft.amount,
    currency: input.draft.currency,
    recipientAddress: input.draft.recipientAddress,
    externalId: input.draft.externalId,
    chainId: null,
    token: null,
    exchangeRate: null,
    amountToken: null,
    txHash: null,
    error: null,
    expiresAt,
    paidAt: null,
    createdAt: now,
    updatedAt: now,
  };
  return {
    payout,
    effects: [
      { kind: 'schedule-expiry', at: expiresAt },
      { kind: 'emit', event: 'payout.created' },
    ],
  };
}
