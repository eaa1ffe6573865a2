// The wait before a check judges every delivery of the run (webhooks.no-created-event-sweep,
// history.events-against-history). Those checks judge what arrived; what a slow implementation sends after the run's
// last write still deserves the webhook wait, but a prompt one has sent everything long before it ends. So the wait is
// by arrival: it ends once every delivery the last writes imply has arrived (a DELETE that cancelled a payment implies
// its payment.cancelled) and the receiver has then been quiet for the quiet period (webhookQuietMs), and at the latest
// webhookWaitMs after the last write, as before. A delivery that never comes (a payment of a merchant whose endpoint is
// not the receiver) costs the whole wait, never a verdict.
import type { Exchange } from '../http/recorder.ts';
import type { Delivery } from './receiver.ts';

/** What the wait reads: the run's webhook wait and quiet period, its answered requests and the receiver's deliveries. */
export interface RunTailSources {
  webhookWaitMs: number;
  webhookQuietMs: number;
  answered: () => readonly Exchange[];
  deliveries: () => Delivery[];
}

/** How often the receiver is looked at while waiting. */
const LOOK_MS = 25;

const CANCEL_PATH = /^\/v1\/payments\/([^/?]+)$/;

/** Payments the writes from `since` on cancelled (a DELETE answered 2xx with the payment CANCELLED): each implies payment.cancelled. */
export function cancelledSince(exchanges: readonly Exchange[], since: number): Set<string> {
  const ids = new Set<string>();
  for (const exchange of exchanges) {
    if (exchange.method !== 'DELETE' || exchange.status === null || exchange.status < 200 || exchange.status >= 300) continue;
    if (Date.parse(exchange.startedAt) < since) continue;
    const match = CANCEL_PATH.exec(new URL(exchange.url).pathname);
    if (!match) continue;
    try {
      const body = JSON.parse(exchange.responseBody) as { id?: unknown; status?: unknown };
      if (body.status === 'CANCELLED' && body.id === decodeURIComponent(match[1]!)) ids.add(body.id);
    } catch {
      // Not JSON: response.conformance reports it; no event is implied.
    }
  }
  return ids;
}

/**
 * Resolves when the deliveries implied by the writes in the webhook wait before `lastWriteAt` have all arrived and the
 * receiver has been quiet for webhookQuietMs since, or at `lastWriteAt + webhookWaitMs`, whichever comes first.
 */
export async function awaitRunTail(sources: RunTailSources, lastWriteAt: number): Promise<void> {
  const { webhookWaitMs, webhookQuietMs } = sources;
  const deadline = lastWriteAt + webhookWaitMs;
  if (Date.now() >= deadline) return;
  const due = cancelledSince(sources.answered(), lastWriteAt - webhookWaitMs);
  const arrived = (deliveries: Delivery[]) => {
    const cancelled = new Set<string>();
    for (const delivery of deliveries) {
      const body = delivery.json as { event?: unknown; data?: { paymentId?: unknown } } | undefined;
      if (body?.event === 'payment.cancelled' && typeof body.data?.paymentId === 'string') cancelled.add(body.data.paymentId);
    }
    return [...due].every((id) => cancelled.has(id));
  };
  for (;;) {
    const now = Date.now();
    if (now >= deadline) return;
    const deliveries = sources.deliveries();
    const quietSince = Math.max(lastWriteAt, deliveries.at(-1)?.receivedAt ?? 0);
    if (now - quietSince >= webhookQuietMs && arrived(deliveries)) return;
    await new Promise((resolve) => setTimeout(resolve, Math.min(LOOK_MS, deadline - now)));
  }
}
