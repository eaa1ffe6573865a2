// Several simulators on one database: the pending deliveries of a process that stopped (SIGKILL, a lost machine)
// are taken over by the others. Every half lease, each process asks for pending deliveries whose lease ran out,
// catches up (so it holds their latest version) and offers them to its dispatcher, which claims the lease before
// the attempt (sql-delivery-leases.ts): whichever process claims first sends, once.
import type { WebhookService } from '../core/webhooks/index.ts';
import type { DurableState } from './persistence/durable-state.ts';
import { startLeaseSweep } from './lease-sweep.ts';

export function startDeliveryTakeover(durable: DurableState, webhooks: WebhookService): () => void {
  const { leases } = durable;
  if (!leases || !webhooks.resumeDelivery) return () => undefined;
  return startLeaseSweep(leases.holder.ms, async () => {
    const ids = await leases.expired();
    if (ids.length === 0) return;
    await durable.refresh();
    for (const id of ids) webhooks.resumeDelivery?.(id);
  });
}
