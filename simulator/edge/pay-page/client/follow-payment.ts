// Polls GET /p/:id/state: briskly while a submitted payment is being settled, slowly while it
// waits (so a cancel or expiry elsewhere shows up), never again once it is final.
import type { PaymentState } from '../customer-view.ts';
import { isFinal } from '../status-text.ts';

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
      else fast ||= state.payment.status === 'PROCESSING';
    } catch (error) {
      onError(error);
    } finally {
      inFlight = false;
    }
    schedule(fast ? FAST_POLL_MS : SLOW_POLL_MS);
  }

  schedule(SLOW_POLL_MS);
  return {
    hurry() {
      fast = true;
      schedule(0);
    },
    stop() {
      stopped = true;
      clearTimeout(timer);
    },
  };
}
