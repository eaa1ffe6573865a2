// Several simulators on one database: each accepted user operation is submitted and settled by one process. The
// admission takes the payment's operation lease (sql-store/sql-operation-leases.ts) before the operation enters this
// process's mempool and makes the acceptance durable first, so a second process (the same operation sent through
// another replica, a retry) is refused. Every half lease each process renews the leases it holds, gives up those
// whose payment left PROCESSING, and takes over PROCESSING payments whose lease ran out (their process stopped): the
// settlement is read from the chain by userOpHash if the operation was mined, else the operation goes back into this
// process's mempool. Recording a settlement is a change like any other: if two processes record one, the second
// finds the first's commit in its catch-up and its own version (payment, ledger entries, deliveries) is undone.
// An undo takes everything this process had not yet committed, so a settlement its own bundler reported may go with
// a conflict on some other record: the payment is back to PROCESSING while its operation is mined and its lease still
// renewed here. So right after every undo, and in every sweep, the outcome this process's bundler reached is recorded
// again for each PROCESSING payment whose lease it holds (recordFinishedAgain).
// A held operation (the control API's) is confirmed or failed through whichever process the request reaches: that
// process takes it from its holder by one conditional update while nobody has started it (takeHeld).
import type { OperationCustody } from '../core/customer/index.ts';
import type { DurableState } from './persistence/durable-state.ts';
import { startLeaseSweep } from './lease-sweep.ts';
import { storageRefusal } from './mount-app.ts';
import { StorageUnavailableError } from './sql-store/sql-durable-state.ts';

export function operationCustody(durable: DurableState): OperationCustody | undefined {
  const leases = durable.operationLeases;
  if (!leases) return undefined;
  return {
    async admit(op, accept) {
      if (!(await leases.claim(op))) return false;
      try {
        const [, mark] = durable.trackWrites(accept);
        // Inside a write session (the control API's submit) the acceptance commits with the request; outside one
        // (the web3 proxy) it is committed now, before the operation may enter the mempool.
        if (!durable.inWriteSession()) await durable.commit(mark);
        return true;
      } catch (error) {
        await leases.release(op.paymentId).catch(() => undefined);
        throw error;
      }
    },
    take: (op) => leases.claim(op).catch(() => false),
    // The database away mid-request: 503 with Retry-After like any write it could not take, nothing taken.
    takeHeld: (op) =>
      leases.takeHeld(op.paymentId).catch((error: unknown) => {
        const reason = error instanceof Error ? error.message : String(error);
        throw storageRefusal(new StorageUnavailableError(`the operation lease could not be read: ${reason}`, false, { cause: error }));
      }),
  };
}

export interface TakeoverTargets {
  payments: { find(id: string): { status: string } | undefined };
  /** Resumes the accepted operations of these payments (attachChains' takeOver); resolves with how many went on. */
  takeOver(paymentIds: ReadonlySet<string>): Promise<number>;
  /** Records again the outcomes this process's bundler reached that these PROCESSING payments lost (attachChains' recordAgain). */
  recordAgain(paymentIds: ReadonlySet<string>): Promise<number>;
}

/** The sweep of operation leases every half lease; returns its stop. */
export function startOperationTakeover(durable: DurableState, targets: TakeoverTargets): () => void {
  const leases = durable.operationLeases;
  if (!leases) return () => undefined;
  const processing = (id: string): boolean => targets.payments.find(id)?.status === 'PROCESSING';
  // An outcome recorded here and undone before it was committed (a conflict in the catch-up undoes everything
  // pending) leaves the payment PROCESSING under a lease this process keeps renewing: recorded again, or it never
  // ends. Right after each undo, and by every sweep in case that one failed (the database away).
  const recordLostOutcomes = async (mine: readonly string[]): Promise<void> => {
    const stillProcessing = new Set(mine.filter(processing));
    if (stillProcessing.size > 0) await targets.recordAgain(stillProcessing);
  };
  const stopListening =
    durable.onUndo?.(() => {
      void leases
        .renew()
        .then(recordLostOutcomes)
        .catch(() => undefined);
    }) ?? (() => undefined);
  const stopSweep = startLeaseSweep(leases.holder.ms, async () => {
    const mine = await leases.renew();
    const expired = await leases.expired();
    if (mine.length === 0 && expired.length === 0) return;
    await durable.refresh();
    for (const id of mine) if (!processing(id)) await leases.release(id);
    await recordLostOutcomes(mine);
    const orphans = new Set<string>();
    for (const id of expired) {
      if (processing(id)) orphans.add(id);
      else await leases.forget(id);
    }
    if (orphans.size > 0) await targets.takeOver(orphans);
  });
  return () => {
    stopListening();
    stopSweep();
  };
}
