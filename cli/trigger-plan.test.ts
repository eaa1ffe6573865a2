import { describe, expect, it } from 'vitest';
import { PAYMENT_TRIGGER_EVENTS, PAYOUT_TRIGGER_EVENTS, planTrigger } from './trigger-plan.ts';

describe('planTrigger', () => {
  it('takes an ACTIVE subject to every event but created, through the customer, chain, clock or merchant', () => {
    for (const events of [PAYMENT_TRIGGER_EVENTS, PAYOUT_TRIGGER_EVENTS]) {
      expect(events.map((e) => planTrigger(e, 'it', 'ACTIVE'))).toEqual([
        { ok: false, reason: expect.stringContaining('only when one is created') },
        { ok: true, steps: ['submit'] },
        { ok: true, steps: ['submit', 'confirm'] },
        { ok: true, steps: ['submit', 'fail'] },
        { ok: true, steps: ['expire'] },
        { ok: true, steps: ['cancel'] },
      ]);
    }
  });

  it('finishes a PROCESSING one and refuses what its state cannot reach, saying why in one line', () => {
    expect(planTrigger('payment.completed', 'payment p', 'PROCESSING')).toEqual({ ok: true, steps: ['confirm'] });
    expect(planTrigger('payment.failed', 'payment p', 'PROCESSING')).toEqual({ ok: true, steps: ['fail'] });
    expect(planTrigger('payment.cancelled', 'payment p', 'PROCESSING')).toEqual({
      ok: false,
      reason: 'payment p is PROCESSING: payment.cancelled needs an ACTIVE one',
    });
    expect(planTrigger('payment.expired', 'payment p', 'PROCESSING')).toMatchObject({
      ok: false,
      reason: expect.stringContaining('PROCESSING never expires'),
    });
    for (const terminal of ['SUCCESSFUL', 'FAILED', 'EXPIRED', 'CANCELLED']) {
      for (const event of PAYMENT_TRIGGER_EVENTS.slice(1)) {
        const plan = planTrigger(event, 'payment p', terminal);
        expect(plan.ok).toBe(false);
        expect(plan.ok ? '' : plan.reason).not.toContain('\n');
      }
    }
  });
});
