// The customer's time-out for each step (ms), stated in the report's notes and used by the agent and its checks.
import { TARGET_DEFAULTS } from '../black-box-options.ts';

/** Time-outs of each step (ms), stated in the report. */
export const STEP_TIMEOUTS = {
  /** The page answers and renders. */
  load: 30_000,
  /** The connect action is there and enabled, and connecting ends. */
  connect: 20_000,
  /** The pair is offered and can be picked. */
  pick: 15_000,
  /** The pay action is there and enabled. */
  pay: 15_000,
  /** From the pay click to an end state shown on the page, and to SUCCESSFUL (or the expected end) in GET /v1/payments/{id}. */
  settle: TARGET_DEFAULTS.customerSettleTimeoutSeconds * 1000,
  /** A state change made elsewhere (cancel, expiry) shows on an open page. */
  follow: 30_000,
} as const;
