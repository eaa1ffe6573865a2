// Polls GET /p/:id/state: briskly while a submitted payment is being settled (first soon after the submit, then backing
// off to FAST_POLL_MS: a settlement often lands within a second, and the customer should see it then, not a poll
// later), slowly while it waits (so a cancel or expiry elsewhere shows up), never again once it is final.
import type { PaymentState } from '../customer-view.ts';
import { isFinal } from '../status-text.ts';

/** The first brisk poll's delay; each next one doubles it up to FAST_POLL_MS. */
export const FIRST_FAST_POLL_MS = 250;
export const FAST_POLL_MS = 1000;
export const SLOW_POLL_MS = 5000;

export interface Follower {
  /** Poll now and then at the fast pace (after a submit, or when the countdown runs out). */
  hurry(): void;
  stop(): void;
}

export function followPayment(
  load: () => Promise<PaymentState>,
  onState: (state: PaymentState) => void,
  onError: (error: unknown) => void,
): Follower {
  let timer: ReturnType<typeof setTimeout> | undefined;
  let fast = false;
  let fastDelay = FIRST_FAST_POLL_MS;
  const nextFast = () => {
    const delay = fastDelay;
    fastDelay = Math.min(FAST_POLL_MS, fastDelay * 2);
    return delay;
  };
  let stopped = false;
  let inFlight = false;

  const schedule = (ms: number) => {
    if (stopped) return;
    clearTimeout(timer);
    timer = setTimeout(tick, ms);
  };
  async function tick(): Promise<void> {
    if (stopped || inFlight) return;
    inFlight = true;
    try {
      const state = await load();
      onState(state);
      if (isFinal(state.payment.status)) stopped = true;
      else if (!fast && state.payment.status === 'PROCESSING') {
        fast = true;
        fastDelay = FIRST_FAST_POLL_MS;
      }
    } catch (error) {
      onError(error);
    } finally {
      inFlight = false;
    }
    schedule(fast ? nextFast() : SLOW_POLL_MS);
  }

  schedule(SLOW_POLL_MS);
  return {
    hurry() {
      fast = true;
      fastDelay = FIRST_FAST_POLL_MS;
      schedule(0);
    },
    stop() {
      stopped = true;
      clearTimeout(timer);
    },
  };
}
