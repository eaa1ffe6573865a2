import { describe, expect, it } from 'vitest';
import { openPayment } from './state-machine.ts';
import type { Payment, PaymentDraft } from './types.ts';
import { createView, retrieveView } from './views.ts';

const T0 = Date.parse('2026-11-21T10:00:00.000Z');
const PAY_URL = 'http://127.0.0.1:4000/';

const draft: PaymentDraft = {
  amount: '100',
  currency: 'USD',
  title: null,
  externalId: 'order-1',
  acceptedChains: [1, 8453],
  acceptedTokens: ['USDC'],
  serviceFee: '0.50',
  merchantFee: '99.50',
  sellers: null,
  expiresAt: undefined,
};

const active: Payment = openPayment({ id: 'p1', merchantId: 'm1', origin: 'api', draft, defaultTtlMs: 3_600_000 }, T0).payment;

describe('payment views', () => {
  it('the create view carries exactly the create-view fields of a new payment', () => {
    expect(createView(active, PAY_URL)).toEqual({
      id: 'p1',
      status: 'ACTIVE',
      amount: '100',
      currency: 'USD',
      title: null,
      externalId: 'order-1',
      acceptedChains: [1, 8453],
      acceptedTokens: ['USDC'],
      serviceFee: '0.50',
      merchantFee: '99.50',
      sellers: null,
      paymentUrl: 'http://127.0.0.1:4000/p/p1',
      expiresAt: '2026-11-21T11:00:00.000Z',
      createdAt: '2026-11-21T10:00:00.000Z',
    });
  });

  it('refuses to label a payment that is no longer ACTIVE with the create view (the contract fixes its status)', () => {
    expect(() => createView({ ...active, status: 'CANCELLED' }, PAY_URL)).toThrow(/CANCELLED/);
  });

  it('the retrieve view shows any status', () => {
    expect(retrieveView({ ...active, status: 'CANCELLED' }, PAY_URL)).toMatchObject({
      id: 'p1',
      status: 'CANCELLED',
      updatedAt: '2026-11-21T10:00:00.000Z',
    });
  });
});
