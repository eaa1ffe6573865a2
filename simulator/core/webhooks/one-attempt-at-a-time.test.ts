// One attempt of a delivery at a time in one process (issue 28): a retry that falls due while the previous attempt is
// in flight starts at once, and must stay the only run of that delivery. Before the fix, the finishing attempt cleared
// the delivery's "sending" mark that the new run had just set, so a takeover sweep (or a catch-up) offering the
// delivery again started a second run of the same attempt: with its own lease, it passed the lease check too.
import { afterEach, expect, it } from 'vitest';
import { VirtualClock } from '../clock/virtual-clock.ts';
import type { FetchLike } from './http-post.ts';
import { createWebhookService } from './service.ts';
import { jsonRequest, testApp } from '../../test-support/webhooks.ts';

const START = Date.parse('2026-11-21T10:00:00.000Z');
const PAYMENT = '3f0c1a2e-5b7d-4c11-9e2f-0a1b2c3d4e5f';

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** A promise with its resolve, to hold an attempt at a chosen point. */
function gate(): { opened: Promise<void>; open: () => void } {
  let open!: () => void;
  const opened = new Promise<void>((resolve) => (open = resolve));
  return { opened, open };
}

it('a retry started at once while its predecessor ends is not started a second time when the delivery is offered again', async () => {
  const clock = new VirtualClock({ wallNow: () => START });
  const firstInFlight = gate();
  const releaseFirst = gate();
  const secondClaimed = gate();
  const releaseSecond = gate();
  const claims: number[] = [];
  let requests = 0;
  const fetch = (async () => {
    requests += 1;
    if (requests === 1) {
      firstInFlight.open();
      await releaseFirst.opened;
    }
    return new Response('nope', { status: 500 });
  }) as unknown as FetchLike;
  const service = createWebhookService({
    clock,
    fetch,
    persistence: {
      persist: { put: () => undefined, delete: () => undefined },
      // Stands for durable mode's commit and lease claim, which take time: attempt 2 waits here.
      durable: async (_record, attempt) => {
        claims.push(attempt);
        if (attempt === 2) {
          secondClaimed.open();
          await releaseSecond.opened;
        }
        return true;
      },
    },
  });
  cleanups.push(
    () => service.close(),
    () => clock.dispose(),
  );
  const res = await testApp(service).request('/v1/webhooks', jsonRequest('m1', 'POST', { url: 'http://receiver.invalid/hook' }));
  expect(res.status).toBe(201);
  service.emit('m1', { type: 'payment.processing', paymentId: PAYMENT, externalId: 'order-1' });
  await firstInFlight.opened;
  // The clock passes attempt 2's due time (+1 min) while attempt 1 is in flight: attempt 2 starts as attempt 1 ends.
  await clock.advance(2 * 60_000);
  releaseFirst.open();
  await secondClaimed.opened;
  // Attempt 1 winds down (its bookkeeping runs after attempt 2 started).
  await new Promise((resolve) => setImmediate(resolve));
  const id = service.deliveries('m1')[0]!.id;
  // The takeover sweep (or a catch-up) offers the delivery while attempt 2 is being claimed.
  service.resumeDelivery?.(id);
  service.resumeDelivery?.(id);
  releaseSecond.open();
  await service.idle();
  expect(claims).toEqual([1, 2]);
  expect(requests).toBe(2);
  expect(service.deliveries('m1')[0]!.attempts.map((made) => made.number)).toEqual([1, 2]);
});
