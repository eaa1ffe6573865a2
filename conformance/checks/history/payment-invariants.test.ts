// updatedAt must move on every change, except where the change may share the last update's millisecond (timestamps
// have millisecond precision): then only a state that had stood longer than a jitter margin before the change proves
// it. Judged on hand-made histories through the check itself.
import { describe, expect, it } from 'vitest';
import type { CheckContext } from '../../context.ts';
import type { PaymentHistory, PaymentView } from '../../history/payment-histories.ts';
import type { Payment } from '../../support/payments.ts';
import { paymentInvariants } from './payment-invariants.ts';

const CREATED = '2026-11-27T02:00:55.437Z';

function payment(status: string, updatedAt: string | undefined): Payment {
  return {
    id: 'e2f19918-95f5-4b6a-8a58-d355d705a48d',
    status,
    amount: '10.00',
    currency: 'USD',
    createdAt: CREATED,
    ...(updatedAt ? { updatedAt } : {}),
  } as unknown as Payment;
}

function view(p: Payment, via: PaymentView['via'], startedAt: number, endedAt: number): PaymentView {
  return { payment: p, via, checkId: 'selftest', startedAt, endedAt };
}

async function failuresOn(views: PaymentView[]): Promise<string[]> {
  const history: PaymentHistory = { id: 'e2f19918-95f5-4b6a-8a58-d355d705a48d', views };
  const failures: string[] = [];
  const ctx = {
    services: { paymentHistories: { all: () => [history] } },
    notExercised: (why: string) => failures.push(`not exercised: ${why}`),
    judged: () => undefined,
    addCases: () => undefined,
    fail: (requirement: string, _title: string, message: string) => failures.push(`${requirement}: ${message}`),
  } as unknown as CheckContext;
  await paymentInvariants.run(ctx);
  return failures;
}

describe('history.payment-invariants: updatedAt on a change', () => {
  it('a cancel answered in the same millisecond as the create may keep updatedAt at createdAt', async () => {
    const failures = await failuresOn([
      view(payment('ACTIVE', undefined), 'create', 1000, 1002),
      view(payment('CANCELLED', CREATED), 'cancel', 1003, 1004),
    ]);
    expect(failures).toEqual([]);
  });

  it('a cancel sent well after the state was first seen must move updatedAt', async () => {
    const failures = await failuresOn([
      view(payment('ACTIVE', undefined), 'create', 1000, 1002),
      view(payment('CANCELLED', CREATED), 'cancel', 2000, 2003),
    ]);
    expect(failures).toHaveLength(1);
    expect(failures[0]).toMatch(/^PAY-FIELD-UPDATED-AT: .*did not move forward.*stood at least 998 ms/);
  });

  it('a state read twice, far apart, before a change seen by GET proves the change came later', async () => {
    const active = payment('ACTIVE', CREATED);
    const quick = await failuresOn([view(active, 'get', 1000, 1002), view(payment('EXPIRED', CREATED), 'get', 1004, 1006)]);
    expect(quick).toEqual([]);
    const late = await failuresOn([
      view(active, 'get', 1000, 1002),
      view(active, 'get', 5000, 5002),
      view(payment('EXPIRED', CREATED), 'get', 9000, 9002),
    ]);
    expect(late).toHaveLength(1);
    expect(late[0]).toMatch(/^PAY-FIELD-UPDATED-AT: /);
  });

  it('an updatedAt that moves passes, and one that goes back fails however quick', async () => {
    expect(
      await failuresOn([
        view(payment('ACTIVE', undefined), 'create', 1000, 1002),
        view(payment('CANCELLED', '2026-11-27T02:00:55.438Z'), 'cancel', 1003, 1004),
      ]),
    ).toEqual([]);
    const back = await failuresOn([
      view(payment('ACTIVE', undefined), 'create', 1000, 1002),
      view(payment('CANCELLED', '2026-11-27T02:00:55.400Z'), 'cancel', 1003, 1004),
    ]);
    expect(back.length).toBeGreaterThan(0);
    expect(back.every((f) => f.startsWith('PAY-FIELD-UPDATED-AT'))).toBe(true);
  });
});
