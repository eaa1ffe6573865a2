// Does libfaketime move the target's clock? A statically linked binary (Go) or a musl libc ignores LD_PRELOAD, and
// its clock stays on real time. The suite moves the clock a little and reads the target's HTTP Date header (RFC 9110
// §6.6.1: an origin server with a clock sends it): it must show the moved time. If it does not, the clock checks are
// not exercised — never passed on a clock that did not move.
import { Agent, fetch } from 'undici';
import type { FaketimeClock } from './faketime-clock.ts';

/** Far enough from real time to tell apart from the Date header's one-second resolution and request latency. */
export const PROBE_ADVANCE_MS = 120_000;
const TOLERANCE_MS = 10_000;

export type ClockProbe = { moved: true } | { moved: false; reason: string };

// A new connection per request: the target closes idle ones once its clock has jumped past their time-out.
const noKeepAlive = new Agent({ pipelining: 0 });

/**
 * One request on a new connection, retried a few times: right after a jump the target runs its overdue timers, and
 * one of them (Node's HTTP server connection check, for one) may reset a connection that arrives at that moment.
 * Answers the Date header.
 */
export async function poke(url: string): Promise<number | undefined> {
  let lastError: unknown;
  for (let attempt = 0; attempt < 5; attempt++) {
    try {
      // Only the Date header matters: the body is not read and a redirect not followed.
      const res = await fetch(url, { signal: AbortSignal.timeout(5_000), dispatcher: noKeepAlive, redirect: 'manual' });
      await res.body?.cancel();
      const date = res.headers.get('date');
      return date ? Date.parse(date) : undefined;
    } catch (error) {
      lastError = error;
      await new Promise((r) => setTimeout(r, 50 * (attempt + 1)));
    }
  }
  throw new Error(`the target stopped answering at ${url} after its clock was moved: ${(lastError as Error).message}`);
}

export async function probeClock(clock: FaketimeClock, url: string): Promise<ClockProbe> {
  await clock.advance(PROBE_ADVANCE_MS);
  let shown: number | undefined;
  // A target may read the clock lazily; a few requests give it the chance to show the new time.
  for (let attempt = 0; attempt < 5; attempt++) {
    shown = await poke(url);
    if (shown === undefined)
      return { moved: false, reason: 'the target sends no Date header, so the suite cannot tell whether libfaketime moves its clock' };
    if (Math.abs(shown - clock.now()) <= TOLERANCE_MS) return { moved: true };
    await new Promise((r) => setTimeout(r, 200));
  }
  return {
    moved: false,
    reason: `libfaketime did not move the target's clock (Date header ${new Date(shown!).toISOString()}, expected about ${new Date(clock.now()).toISOString()}): a statically linked or musl target ignores LD_PRELOAD`,
  };
}
