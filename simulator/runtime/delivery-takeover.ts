// Several simulators on one database: the pending deliveries of a process that stopped (SIGKILL, a lost machine)
// are taken over by the others. Every half lease, each process first renews the leases of the attempts it claimed
// and has not committed the outcome of (a slow attempt is never taken over from a live sender), then asks for
// pending deliveries whose lease ran out,
// catches up (so it holds their latest version) and offers them to its dispatcher, which claims the lease before
// the attempt (sql-delivery-leases.ts): whichever process claims first sends, once.
import type { WebhookService } from '../core/webhooks/index.ts';
import type { DurableState } from './persistence/durable-state.ts';
import { startLeaseSweep } from './lease-sweep.ts';

export function startDeliveryTakeover(durable: DurableState, webhooks: WebhookService): () => void {
  const { leases } = durable;
  if (!leases || !webhooks.resumeDelivery) return () => undefined;
  return startLeaseSweep(leases.holder.ms, async () => {
    await leases.renewClaimed();
    const ids = await leases.expired();
    if (ids.length === 0) return;
    await durable.refresh();
    for (const id of ids) webhooks.resumeDelivery?.(id);
  });
}
