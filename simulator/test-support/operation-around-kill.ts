// One operation of a crash run (crash-run.ts, replica-crash-run.ts) with the kill that may go with it. Cut by the
// kill: the kill is sent 0–3 ms after the request went out, and the operation counts as acknowledged if its answer
// still arrived, else as unacknowledged (its effect is uncertain: `onLost`). Otherwise it is answered first and the
// kill, if any, follows.
export interface AroundKill<A> {
  op: () => Promise<A>;
  onAnswer: (answer: A) => void;
  onLost: () => void;
  /** Sends the kill and waits for the process to exit; undefined: no kill with this operation. */
  kill: (() => Promise<void>) | undefined;
  /** The kill lands in the middle of the request (needs `kill`). */
  midRequest: boolean;
  random: () => number;
  counts: { acknowledged: number; unacknowledged: number };
}

export async function operationAroundKill<A>(run: AroundKill<A>): Promise<void> {
  const { counts } = run;
  if (run.midRequest && run.kill) {
    const answer = run.op().then(
      (a) => a,
      () => undefined,
    );
    await new Promise((resolve) => setTimeout(resolve, Math.floor(run.random() * 4)));
    await run.kill();
    const a = await answer;
    if (a) {
      counts.acknowledged += 1;
      run.onAnswer(a);
    } else {
      counts.unacknowledged += 1;
      run.onLost();
    }
    return;
  }
  counts.acknowledged += 1;
  run.onAnswer(await run.op());
  if (run.kill) await run.kill();
}
