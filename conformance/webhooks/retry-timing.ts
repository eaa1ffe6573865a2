// Retry timing judged by arrival (spec §6's table), on the implementation's clock as the suite knows it (it moves that
// clock itself), never by a header the implementation writes. What the suite knows of when an attempt left is a span:
// not before the last moment the suite saw it had not arrived yet, not after it arrived. A retry may count from
// attempt 1 (the cumulative column) or from the previous attempt (the delay column); both read the table faithfully,
// and from outside they differ by how late the previous attempt left, so both are allowed where the suite cannot tell.

/** Cumulative seconds after attempt 1 (spec §6 table). */
export const RETRY_OFFSETS_S = [0, 60, 360, 2160, 9360, 38160, 124560];

/** When an attempt left, as far as the suite can tell (ms on the implementation's clock). */
export interface AttemptSpan {
  /** The suite had not seen it by then. */
  lo: number;
  /** It had arrived by then. */
  hi: number;
}

export interface DueWindow {
  lo: number;
  hi: number;
}

/** When attempt `attempt` (2..7) is due, from attempt 1 (and from the previous attempt when `fromPrevious`). */
export function dueWindow(first: AttemptSpan, previous: AttemptSpan, attempt: number, fromPrevious: boolean): DueWindow {
  const cumulative = RETRY_OFFSETS_S[attempt - 1]! * 1000;
  const delay = cumulative - RETRY_OFFSETS_S[attempt - 2]! * 1000;
  const bases = [{ lo: first.lo + cumulative, hi: first.hi + cumulative }];
  if (fromPrevious) bases.push({ lo: previous.lo + delay, hi: previous.hi + delay });
  return { lo: Math.min(...bases.map((b) => b.lo)), hi: Math.max(...bases.map((b) => b.hi)) };
}

export type ArrivalVerdict = 'on-time' | 'early' | 'late';

/**
 * An attempt is early when it arrived more than the tolerance before its window opened, late when it arrived more than
 * the tolerance after both the window closed and the moment the suite woke the implementation past it (`wokenAt`: a
 * clock moved from outside lands where it lands, and nothing can be sent before the implementation sees its due time).
 */
export function judgeArrival(arrivedAt: number, window: DueWindow, wokenAt: number, toleranceMs: number): ArrivalVerdict {
  if (arrivedAt < window.lo - toleranceMs) return 'early';
  if (arrivedAt > Math.max(window.hi, wokenAt) + toleranceMs) return 'late';
  return 'on-time';
}
