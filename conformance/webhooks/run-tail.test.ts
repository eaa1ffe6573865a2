// The wait before the run-wide webhook checks judge: by arrival. It ends as soon as the payment.cancelled each last
// cancel implies has arrived and the receiver has been quiet for the quiet period; a delivery that never comes costs
// the whole webhook wait after the last write, as a fixed wait did.
import { describe, expect, it } from 'vitest';
import type { Exchange } from '../http/recorder.ts';
import { recordedDelivery } from '../test-support/delivery.ts';
import { recordedExchange } from '../test-support/exchange.ts';
import type { Delivery } from './receiver.ts';
import { awaitRunTail, cancelledSince, type RunTailSources } from './run-tail.ts';

const A = '5f0c4a36-9a43-4d0e-9a0e-7d6cf3f1a001';
const B = '5f0c4a36-9a43-4d0e-9a0e-7d6cf3f1a002';

function cancel(id: string, at: number, answer: { status: number; body: unknown }): Exchange {
  return recordedExchange({
    method: 'DELETE',
    url: `http://127.0.0.1:1/v1/payments/${id}`,
    status: answer.status,
    responseBody: JSON.stringify(answer.body),
    startedAt: new Date(at).toISOString(),
  });
}

const delivery = recordedDelivery;

function context(exchanges: Exchange[], deliveries: () => Delivery[]): RunTailSources {
  return { webhookWaitMs: 4_000, webhookQuietMs: 100, answered: () => exchanges, deliveries };
}

describe('cancelledSince', () => {
  it('names the payments a DELETE answered CANCELLED from the given instant on, nothing refused or earlier', () => {
    const now = Date.now();
    const exchanges = [
      cancel(A, now, { status: 200, body: { id: A, status: 'CANCELLED' } }),
      cancel(B, now, { status: 400, body: { errors: [] } }),
      cancel(B, now - 10_000, { status: 200, body: { id: B, status: 'CANCELLED' } }),
    ];
    expect([...cancelledSince(exchanges, now - 5_000)]).toEqual([A]);
  });
});

describe('awaitRunTail', () => {
  it('ends once the implied payment.cancelled has arrived and the receiver went quiet', async () => {
    const lastWrite = Date.now();
    const deliveries: Delivery[] = [];
    setTimeout(() => deliveries.push(delivery('payment.cancelled', A, Date.now())), 200);
    const ctx = context([cancel(A, lastWrite - 1, { status: 200, body: { id: A, status: 'CANCELLED' } })], () => deliveries);
    await awaitRunTail(ctx, lastWrite);
    const waited = Date.now() - lastWrite;
    // Its event at 200 ms, then 100 ms of quiet: far from the 4 s webhook wait (a loaded machine has 1.5 s of slack).
    expect(waited).toBeGreaterThanOrEqual(300);
    expect(waited).toBeLessThan(2_500);
  });

  it('waits the whole webhook wait for an implied delivery that never comes', async () => {
    const lastWrite = Date.now();
    const ctx = context([cancel(A, lastWrite - 1, { status: 200, body: { id: A, status: 'CANCELLED' } })], () => [
      delivery('payment.cancelled', B, lastWrite),
    ]);
    await awaitRunTail(ctx, lastWrite);
    expect(Date.now() - lastWrite).toBeGreaterThanOrEqual(4_000);
  });

  it('does not end while deliveries keep coming', async () => {
    const lastWrite = Date.now();
    const deliveries: Delivery[] = [];
    const timer = setInterval(() => deliveries.push(delivery('payment.expired', B, Date.now())), 50);
    setTimeout(() => clearInterval(timer), 600);
    await awaitRunTail(
      context([], () => deliveries),
      lastWrite,
    );
    // The last delivery came at about 600 ms: 100 ms of quiet after it.
    expect(Date.now() - lastWrite).toBeGreaterThanOrEqual(650);
    expect(Date.now() - (deliveries.at(-1)?.receivedAt ?? 0)).toBeGreaterThanOrEqual(100);
  });

  it('returns at once when the webhook wait after the last write has passed', async () => {
    const started = Date.now();
    await awaitRunTail(
      context([], () => [delivery('payment.expired', B, started)]),
      started - 5_000,
    );
    expect(Date.now() - started).toBeLessThan(100);
  });
});
