// Polls GET /p/:id/state: briskly while a submitted payment is being settled (every BRISK_POLL_MS for the first
// BRISK_POLLS polls, then every FAST_POLL_MS: a settlement often lands within a second, and the customer should see it
// then, not a poll later), less often while it waits (so a cancel or expiry elsewhere shows up), never again once it
// is final.
import type { PaymentState } from '../customer-view.ts';
import { isFinal } from '../status-text.ts';

/** The brisk polls' spacing after a submit (or the first PROCESSING seen): a settlement shows within 250 ms. */
export const BRISK_POLL_MS = 250;
/** How many brisk polls before slowing to FAST_POLL_MS (2 s of them). */
export const BRISK_POLLS = 8;
export const FAST_POLL_MS = 1000;
/** While the payment waits: a cancel or expiry elsewhere shows within 2 s (the customer acts on what the page says). */
export const SLOW_POLL_MS = 2000;

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
  let briskLeft = BRISK_POLLS;
  const nextFast = () => {
    if (briskLeft === 0) return FAST_POLL_MS;
    briskLeft -= 1;
    return BRISK_POLL_MS;
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
        briskLeft = BRISK_POLLS;
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
      briskLeft = BRISK_POLLS;
      schedule(0);
    },
    stop() {
      stopped = true;
      clearTimeout(timer);
    },
  };
}
