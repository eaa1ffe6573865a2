// Several simulators on one database: what a stopped process held under a lease (a webhook delivery, an accepted
// user operation) is looked for every half lease, so it is taken over at most one and a half leases after it stopped.
// One sweep at a time; a sweep that fails (the database away) is simply the next one's to do.

/** Runs `sweep` every half of `leaseMs` (at least every 100 ms); returns its stop. */
export function startLeaseSweep(leaseMs: number, sweep: () => Promise<unknown>): () => void {
  let sweeping = false;
  const timer = setInterval(
    () => {
      if (sweeping) return;
      sweeping = true;
      void sweep()
        .catch(() => undefined)
        .finally(() => {
          sweeping = false;
        });
    },
    Math.max(100, Math.floor(leaseMs / 2)),
  );
  timer.unref();
  return () => clearInterval(timer);
}
