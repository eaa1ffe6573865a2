import { describe, expect, it } from 'vitest';
import type { PaymentEvent, PaymentEventType } from './state-machine.ts';
import { accepts, openPayment, PAYMENT_EVENT_TYPES, transition } from './state-machine.ts';
import type { Payment, PaymentDraft, PaymentStatus } from './types.ts';
import { PAYMENT_STATUSES } from './types.ts';

const T0 = Date.parse('2026-11-21T10:00:00.000Z');
const HOUR = 3_600_000;

const draft: PaymentDraft = {
  amount: '100',
  currency: 'USD',
  title: null,
  externalId: 'order-1',
  acceptedChains: [1, 8453],
  acceptedTokens: ['USDC', 'USDT'],
  serviceFee: '0.50',
  merchantFee: '99.50',
  sellers: null,
  expiresAt: undefined,
};

const active = (origin: 'api' | 'dashboard' = 'api'): Payment =>
  openPayment({ id: 'p1', merchantId: 'm1', origin, draft, defaultTtlMs: HOUR }, T0).payment;

const inStatus = (status: PaymentStatus): Payment => ({ ...active(), status });

const events: Record<PaymentEventType, PaymentEvent> = {
  'customer.submitted': { type: 'customer.submitted', chainId: 1, token: 'USDC', exchangeRate: '1.000000' },
  'chain.confirmed': { type: 'chain.confirmed', txHash: `0x${'ab'.repeat(32)}`, gasActual: '0.540000' },
  'chain.failed': { type: 'chain.failed', error: { code: 'TRANSACTION_REVERTED', source: 'chain', message: 'reverted' } },
  'bundler.rejected': { type: 'bundler.rejected', error: { code: 'USER_OPERATION_REJECTED', source: 'bundler', message: 'rejected' } },
  'clock.expired': { type: 'clock.expired' },
  'merchant.cancelled': { type: 'merchant.cancelled' },
};

// The expected table, written out independently of the implementation: [to, webhook] or null.
const EXPECTED: Record<PaymentStatus, Partial<Record<PaymentEventType, [PaymentStatus, string]>>> = {
  ACTIVE: {
    'customer.submitted': ['PROCESSING', 'payment.processing'],
    'clock.expired': ['EXPIRED', 'payment.expired'],
    'merchant.cancelled': ['CANCELLED', 'payment.cancelled'],
  },
  PROCESSING: {
    'chain.confirmed': ['SUCCESSFUL', 'payment.completed'],
    'chain.failed': ['FAILED', 'payment.failed'],
    'bundler.rejected': ['FAILED', 'payment.failed'],
  },
  SUCCESSFUL: {},
  FAILED: {},
  EXPIRED: {},
  CANCELLED: {},
};

describe('payment transition table', () => {
  const pairs = PAYMENT_STATUSES.flatMap((s) => PAYMENT_EVENT_TYPES.map((e) => [s, e] as const));

  it('covers all 36 (state, event) pairs', () => {
    expect(pairs).toHaveLength(36);
  });

  it.each(pairs)('%s + %s', (status, eventType) => {
    const now = eventType === 'clock.expired' ? T0 + HOUR : T0 + 1000;
    const before = inStatus(status);
    const result = transition(before, events[eventType], now);
    const expected = EXPECTED[status][eventType];
    expect(accepts(status, eventType)).toBe(expected !== undefined);
    if (!expected) {
      expect(result.ok).toBe(false);
      if (!result.ok) expect(result.refusal.reason).toBe('invalid-state');
      return;
    }
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.payment.status).toBe(expected[0]);
    expect(result.payment.updatedAt).toBe(now);
    const emitted = result.effects.filter((e) => e.kind === 'emit');
    expect(emitted).toEqual([{ kind: 'emit', event: expected[1] }]);
    expect(before.status).toBe(status); // the input record is never mutated
  });

  it('never leaves a terminal state and never moves backwards', () => {
    const rank: Record<PaymentStatus, number> = { ACTIVE: 0, PROCESSING: 1, SUCCESSFUL: 2, FAILED: 2, EXPIRED: 2, CANCELLED: 2 };
    for (const [status, eventType] of pairs) {
      const result = transition(inStatus(status), events[eventType], T0 + 2 * HOUR);
      if (result.ok) expect(rank[result.payment.status]).toBeGreaterThan(rank[status]);
    }
  });
});

describe('guards and data', () => {
  it('locks chain, token, rate and token amounts on submit and stops the expiry timer', () => {
    const result = transition(active(), { type: 'customer.submitted', chainId: 8453, token: 'USDC', exchangeRate: '1.08' }, T0 + 1);
    expect(result).toMatchObject({
      ok: true,
      payment: {
        status: 'PROCESSING',
        chainId: 8453,
        token: 'USDC',
        exchangeRate: '1.080000',
        amountToken: '108.000000',
        serviceFeeToken: '0.540000',
        merchantFeeToken: '107.460000',
      },
    });
    if (result.ok) expect(result.effects).toContainEqual({ kind: 'cancel-expiry' });
  });

  it('refuses a pair the payment does not accept, or the chain table lacks', () => {
    const notAccepted = transition(active(), { type: 'customer.submitted', chainId: 137, token: 'USDC', exchangeRate: '1' }, T0 + 1);
    expect(notAccepted).toMatchObject({ ok: false, refusal: { reason: 'pair-not-accepted' } });
    const unsupported = transition(active(), { type: 'customer.submitted', chainId: 8453, token: 'USDT', exchangeRate: '1' }, T0 + 1);
    expect(unsupported).toMatchObject({ ok: false, refusal: { reason: 'pair-unsupported' } });
  });

  it('refuses a submit at or after expiresAt, and an expiry before it', () => {
    const late = transition(active(), events['customer.submitted'], T0 + HOUR);
    expect(late).toMatchObject({ ok: false, refusal: { reason: 'expired' } });
    const early = transition(active(), events['clock.expired'], T0 + HOUR - 1);
    expect(early).toMatchObject({ ok: false, refusal: { reason: 'not-yet-expired' } });
  });

  it('an expiry that runs late is dated expiresAt: every process sharing the sandbox makes the same record', () => {
    const late = transition(active(), events['clock.expired'], T0 + HOUR + 5000);
    expect(late).toMatchObject({ ok: true, payment: { status: 'EXPIRED', updatedAt: T0 + HOUR } });
  });

  it('sets paidAt, txHash and gasActual on confirmation and asks for a ledger entry', () => {
    const result = transition(inStatus('PROCESSING'), events['chain.confirmed'], T0 + 5);
    expect(result).toMatchObject({ ok: true, payment: { paidAt: T0 + 5, txHash: `0x${'ab'.repeat(32)}`, gasActual: '0.540000' } });
    if (result.ok) expect(result.effects).toContainEqual({ kind: 'record-settlement' });
  });

  it('never dates a payment paid before it was created, nor after now: a block timestamp has whole seconds', () => {
    const processing = inStatus('PROCESSING');
    const confirmed = (paidAt: number): PaymentEvent => ({
      type: 'chain.confirmed',
      txHash: `0x${'ab'.repeat(32)}`,
      gasActual: '0.540000',
      paidAt,
    });
    const sameSecond = transition(processing, confirmed(processing.createdAt - 214), processing.createdAt + 900);
    expect(sameSecond).toMatchObject({ ok: true, payment: { paidAt: processing.createdAt } });
    const ahead = transition(processing, confirmed(processing.createdAt + 5_000), processing.createdAt + 900);
    expect(ahead).toMatchObject({ ok: true, payment: { paidAt: processing.createdAt + 900 } });
  });

  it('opens ACTIVE with an expiry timer; payment.created only for dashboard creates', () => {
    const api = openPayment({ id: 'a', merchantId: 'm', origin: 'api', draft, defaultTtlMs: HOUR }, T0);
    expect(api.payment.expiresAt).toBe(T0 + HOUR);
    expect(api.effects).toEqual([{ kind: 'schedule-expiry', at: T0 + HOUR }]);
    const dashboard = openPayment(
      { id: 'b', merchantId: 'm', origin: 'dashboard', draft: { ...draft, expiresAt: T0 + 2 * HOUR }, defaultTtlMs: HOUR },
      T0,
    );
    expect(dashboard.effects).toEqual([
      { kind: 'schedule-expiry', at: T0 + 2 * HOUR },
      { kind: 'emit', event: 'payment.created' },
    ]);
  });
});
