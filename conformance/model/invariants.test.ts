// The tracker against hand-made observation sequences: each lifetime rule fails its violation and
// passes the legal variant (re-formatted decimals, reordered keys, a change with a fresh updatedAt).
import { describe, expect, it } from 'vitest';
import type { Payment } from '../support/payments.ts';
import { PaymentTracker, tokenIdentityViolations } from './invariants.ts';

const T0 = Date.parse('2026-01-01T10:00:00.000Z');
const iso = (ms: number) => new Date(ms).toISOString();

function payment(overrides: Partial<Payment> = {}): Payment {
  return {
    id: '3f1c2a9e-8b7d-4c6e-9a5f-1e2d3c4b5a69',
    status: 'ACTIVE',
    amount: '100.00',
    currency: 'USD',
    title: null,
    externalId: null,
    acceptedChains: [1, 8453],
    acceptedTokens: ['USDC'],
    serviceFee: '0.50',
    merchantFee: '99.50',
    sellers: null,
    paymentUrl: 'http://pay.test/p/3f1c2a9e',
    chainId: null,
    token: null,
    exchangeRate: null,
    amountToken: null,
    serviceFeeToken: null,
    merchantFeeToken: null,
    gasActual: null,
    txHash: null,
    error: null,
    expiresAt: iso(T0 + 3600_000),
    paidAt: null,
    createdAt: iso(T0),
    updatedAt: iso(T0),
    ...overrides,
  };
}

const processing = (at: number): Partial<Payment> => ({
  status: 'PROCESSING',
  chainId: 8453,
  token: 'USDC',
  exchangeRate: '1.000000',
  amountToken: '100.000000',
  serviceFeeToken: '0.500000',
  merchantFeeToken: '99.500000',
  updatedAt: iso(at),
});

const requirements = (tracker: PaymentTracker, p: Payment, readAt: number) => tracker.observe(p, readAt).map((v) => v.requirement);

describe('PaymentTracker', () => {
  it('orders createdAt ≤ paidAt ≤ updatedAt', () => {
    const paid = { ...processing(T0 + 60_000), status: 'SUCCESSFUL' as const, txHash: `0x${'a'.repeat(64)}`, gasActual: '0.01' };
    expect(requirements(new PaymentTracker(), payment({ ...paid, paidAt: iso(T0 + 60_000) }), T0)).toEqual([]);
    expect(requirements(new PaymentTracker(), payment({ ...paid, paidAt: iso(T0 - 1) }), T0)).toEqual(['PAY-FIELD-PAID-AT']);
    expect(requirements(new PaymentTracker(), payment({ ...paid, paidAt: iso(T0 + 60_001) }), T0)).toEqual(['PAY-FIELD-UPDATED-AT']);
  });

  it('fails a status that goes back (forward only), not one that moves on', () => {
    const t = new PaymentTracker();
    expect(requirements(t, payment(processing(T0 + 1000)), T0 + 1000)).toEqual([]);
    expect(requirements(t, payment({ ...processing(T0 + 2000), status: 'ACTIVE' }), T0 + 2000)).toContain('PAY-STATE-FORWARD-ONLY');
  });

  it('accepts a legal life: create, reads, a transition with a fresh updatedAt, re-formatted decimals', () => {
    const t = new PaymentTracker();
    t.created(payment().id, { amount: '100', currency: 'USD', acceptedChains: [8453, 1] });
    expect(requirements(t, payment(), T0)).toEqual([]);
    expect(requirements(t, payment({ amount: '100.0' }), T0 + 1000)).toEqual([]);
    expect(requirements(t, payment(processing(T0 + 60_000)), T0 + 60_000)).toEqual([]);
    expect(requirements(t, payment({ ...processing(T0 + 60_000), exchangeRate: '1.0' }), T0 + 61_000)).toEqual([]);
  });

  it('fails acceptedChains that differ from the request or change later', () => {
    const t = new PaymentTracker();
    t.created(payment().id, { amount: '100', currency: 'USD', acceptedChains: [1, 8453] });
    expect(requirements(t, payment({ acceptedChains: [1] }), T0)).toContain('PAY-ACCEPTED-STORED-AS-REQUESTED');
    const u = new PaymentTracker();
    u.observe(payment(), T0);
    expect(requirements(u, payment({ ...processing(T0 + 5000), acceptedChains: [8453] }), T0 + 5000)).toContain(
      'PAY-ACCEPTED-STORED-AS-REQUESTED',
    );
  });

  it('fails an updatedAt that does not move on a change, or moves without one', () => {
    const t = new PaymentTracker();
    t.observe(payment(), T0 + 60_000);
    expect(requirements(t, payment(processing(T0)), T0 + 120_000)).toContain('PAY-FIELD-UPDATED-AT');
    const u = new PaymentTracker();
    u.observe(payment(), T0);
    expect(requirements(u, payment({ updatedAt: iso(T0 + 5) }), T0 + 10)).toContain('PAY-FIELD-UPDATED-AT');
  });

  it('fails a set-once field that changes after it was set, and any change of a terminal payment', () => {
    const t = new PaymentTracker();
    t.observe(payment(processing(T0 + 1000)), T0 + 1000);
    expect(requirements(t, payment({ ...processing(T0 + 2000), exchangeRate: '1.010000' }), T0 + 3000)).toContain(
      'PAY-FIELD-EXCHANGE-RATE',
    );
    const done = { ...processing(T0 + 1000), status: 'SUCCESSFUL' as const, txHash: '0xab', paidAt: iso(T0 + 1000), gasActual: '0.010000' };
    const u = new PaymentTracker();
    u.observe(payment(done), T0 + 1000);
    expect(requirements(u, payment({ ...done, gasActual: '0.020000', updatedAt: iso(T0 + 9000) }), T0 + 9000)).toEqual([
      'PAY-FIELD-GAS-ACTUAL',
      'PAY-STATE-TERMINAL-FINAL',
    ]);
  });

  it('checks the token-amount identities (assumed)', () => {
    expect(tokenIdentityViolations(payment(processing(T0)))).toEqual([]);
    expect(
      tokenIdentityViolations(payment({ ...processing(T0), amountToken: '100.000001', merchantFeeToken: '99.500001' })).map(
        (v) => v.requirement,
      ),
    ).toEqual(['PAY-TOKEN-AMOUNT-CEIL']);
    expect(tokenIdentityViolations(payment({ ...processing(T0), merchantFeeToken: '99.499999' })).map((v) => v.requirement)).toEqual([
      'PAY-MERCHANT-FEE-TOKEN-REMAINDER',
    ]);
    expect(
      tokenIdentityViolations(
        payment({
          ...processing(T0),
          exchangeRate: '1.333333',
          amountToken: '133.333300',
          serviceFeeToken: '0.666667',
          merchantFeeToken: '132.666633',
        }),
      ),
    ).toEqual([]);
  });
});
