// Chaos deliveries: the settings grammar, the plan drawn per attempt, and what the dispatcher does
// with a plan (sends twice, holds back so a later event overtakes), counted on the delivery.
import { afterEach, describe, expect, it } from 'vitest';
import { VirtualClock } from '../clock/virtual-clock.ts';
import { jsonRequest, testApp } from '../../test-support/webhooks.ts';
import { chaosPlanner, parseChaosSettings, REORDER_HOLD_MS, type ChaosPlan } from './chaos.ts';
import type { AttemptReport } from './dispatcher.ts';
import { createWebhookService, type WebhookService } from './service.ts';

const A = '00000000-0000-4000-8000-00000000000a';
const B = '00000000-0000-4000-8000-00000000000b';
let service: WebhookService | undefined;
afterEach(async () => service?.close());

async function setup(plans: ChaosPlan[]) {
  const sent: string[] = [];
  const deliveryIds: string[] = [];
  const reports: AttemptReport[] = [];
  const fetch = (async (_url: string, init: { body: string; headers: Record<string, string> }) => {
    sent.push((JSON.parse(init.body) as { data: { paymentId: string } }).data.paymentId);
    deliveryIds.push(init.headers['X-Service-Delivery-Id']!);
    return new Response('', { status: 200 });
  }) as never;
  const calm: ChaosPlan = { holdMs: 0, duplicate: false, effects: [] };
  service = createWebhookService({
    clock: new VirtualClock(),
    fetch,
    chaos: () => plans.shift() ?? calm,
    onAttempt: (r) => reports.push(r),
  });
  expect((await testApp(service).request('/v1/webhooks', jsonRequest('m1', 'POST', { url: 'http://hook.example/' }))).status).toBe(201);
  return { sent, deliveryIds, reports, service };
}

describe('chaos deliveries', () => {
  it('reads duplicate=<p>,reorder=<p>,delay=<ms> and refuses anything else', () => {
    expect(parseChaosSettings('duplicate=0.1, reorder=0.25,delay=2000')).toEqual({ duplicate: 0.1, reorder: 0.25, delayMs: 2000 });
    expect(parseChaosSettings('duplicate=1')).toEqual({ duplicate: 1, reorder: 0, delayMs: 0 });
    for (const bad of ['duplicate=1.5', 'reorder=', 'delay=-1', 'delay=10000', 'shuffle=0.1', 'duplicate=x'])
      expect(() => parseChaosSettings(bad), bad).toThrow(RangeError);
  });

  it('draws a plan per attempt from the probabilities', () => {
    const draws = [0.05, 0, 0.5, 0.05];
    const plan = chaosPlanner({ duplicate: 0.1, reorder: 0.1, delayMs: 1000 }, () => draws.shift() ?? 0.99);
    // reorder (0.05 < 0.1, held the minimum), delay 0.5 * 1000, duplicate (0.05 < 0.1)
    expect(plan()).toEqual({ holdMs: REORDER_HOLD_MS[0] + 500, duplicate: true, effects: ['reorder', 'delay', 'duplicate'] });
    expect(chaosPlanner({ duplicate: 0, reorder: 0, delayMs: 0 }, () => 0)()).toEqual({ holdMs: 0, duplicate: false, effects: [] });
  });

  it('sends a duplicated attempt twice and counts it on the delivery and in the attempt report', async () => {
    const { sent, deliveryIds, reports, service } = await setup([{ holdMs: 0, duplicate: true, effects: ['duplicate'] }]);
    service.emit('m1', { type: 'payment.completed', paymentId: A });
    service.emit('m1', { type: 'payment.completed', paymentId: B });
    await service.idle();
    // The copy carries the delivery's id, so a receiver can drop it; the other delivery has another id.
    const idOf = (paymentId: string) => service.deliveries('m1').find((d) => d.paymentId === paymentId)!.id;
    const received = sent.map((paymentId, index) => `${paymentId} ${deliveryIds[index]}`).sort();
    expect(received).toEqual([`${A} ${idOf(A)}`, `${A} ${idOf(A)}`, `${B} ${idOf(B)}`].sort());
    expect(idOf(A)).not.toBe(idOf(B));
    const delivery = service.deliveries('m1').find((d) => d.paymentId === A);
    expect(delivery).toMatchObject({ status: 'succeeded', chaos: { duplicated: 1, reordered: 0, delayed: 0 } });
    expect(delivery!.attempts).toHaveLength(1);
    expect(reports.filter((r) => r.paymentId === A).map((r) => r.chaos)).toEqual([['duplicate']]);
  });

  it('holds a reordered attempt back so a later event arrives first', async () => {
    const { sent, service } = await setup([{ holdMs: 200, duplicate: false, effects: ['reorder'] }]);
    service.emit('m1', { type: 'payment.processing', paymentId: A });
    service.emit('m1', { type: 'payment.processing', paymentId: B });
    await service.idle();
    expect(sent).toEqual([B, A]);
    const byPayment = Object.fromEntries(service.deliveries('m1').map((d) => [d.paymentId, d.chaos]));
    expect(byPayment).toEqual({ [A]: { duplicated: 0, reordered: 1, delayed: 0 }, [B]: undefined });
  });
});
