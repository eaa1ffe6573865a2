import { describe, expect, it } from 'vitest';
import type { PayoutEvent, PayoutEventType } from './payout-state-machine.ts';
import { openPayout, PAYOUT_EVENT_TYPES, payoutTransition } from './payout-state-machine.ts';
import { PAYMENT_STATUSES } from '../payments/types.ts';
import type { Payout, PayoutStatus } from './types.ts';

const T0 = Date.parse('2026-11-21T10:00:00.000Z');
const base = openPayout(
  {
    id: 'po',
    merchantId: 'm',
    draft: { amount: '50', currency: 'USD', recipientAddress: `0x${'a'.repeat(40)}`, externalId: null, expiresAt: undefined },
    defaultTtlMs: 3_600_000,
  },
  T0,
);
const inStatus = (status: PayoutStatus): Payout => ({ ...base.payout, status });

const events: Record<PayoutEventType, PayoutEvent> = {
  'payer.submitted': { type: 'payer.submitted', chainId: 137, token: 'USDT', exchangeRate: '1.000000' },
  'chain.confirmed': { type: 'chain.confirmed', txHash: `0x${'1'.repeat(64)}` },
  'chain.failed': { type: 'chain.failed', error: { code: 'TRANSACTION_REVERTED', source: 'chain', message: 'x' } },
  'clock.expired': { type: 'clock.expired' },
  'merchant.cancelled': { type: 'merchant.cancelled' },
};

const EXPECTED: Partial<Record<PayoutStatus, Partial<Record<PayoutEventType, [PayoutStatus, string]>>>> = {
  ACTIVE: {
    'payer.submitted': ['PROCESSING', 'payout.processing'],
    'clock.expired': ['EXPIRED', 'payout.expired'],
    'merchant.cancelled': ['CANCELLED', 'payout.cancelled'],
  },
  PROCESSING: { 'chain.confirmed': ['SUCCESSFUL', 'payout.completed'], 'chain.failed': ['FAILED', 'payout.failed'] },
};

describe('payout transition table', () => {
  it('opens ACTIVE and always emits payout.created', () => {
    expect(base.effects).toEqual([
      { kind: 'schedule-expiry', at: T0 + 3_600_000 },
      { kind: 'emit', event: 'payout.created' },
    ]);
  });

  const pairs = PAYMENT_STATUSES.flatMap((s) => PAYOUT_EVENT_TYPES.map((e) => [s, e] as const));
  it.each(pairs)('%s + %s', (status, type) => {
    const now = type === 'clock.expired' ? T0 + 3_600_000 : T0 + 1;
    const result = payoutTransition(inStatus(status), events[type], now);
    const expected = EXPECTED[status]?.[type];
    expect(result.ok).toBe(expected !== undefined);
    if (result.ok && expected) {
      expect(result.payout.status).toBe(expected[0]);
      expect(result.effects.filter((e) => e.kind === 'emit')).toEqual([{ kind: 'emit', event: expected[1] }]);
    }
  });

  it('locks the token amount on submit and refuses pairs the chain table lacks', () => {
    const ok = payoutTransition(inStatus('ACTIVE'), { type: 'payer.submitted', chainId: 1, token: 'USDC', exchangeRate: '1.08' }, T0);
    expect(ok).toMatchObject({ ok: true, payout: { amountToken: '54.000000', exchangeRate: '1.080000' } });
    expect(
      payoutTransition(inStatus('ACTIVE'), { type: 'payer.submitted', chainId: 56, token: 'USDC', exchangeRate: '1' }, T0),
    ).toMatchObject({ ok: false, refusal: { reason: 'pair-unsupported' } });
  });
});
