// The pause between two polls of something the suite waits for (a target's readiness, a payment's settlement, a page's
// state): short at first, so what is already there or comes at once is seen at once, then growing, so a slow target,
// chain or page is not hammered by a loaded suite while it works.

export interface BackOffOptions {
  /** The first pause (default 20 ms). */
  firstMs?: number;
  /** The longest pause (default 500 ms). */
  maxMs?: number;
  /** Each pause is the previous one times this (default 1.5). */
  factor?: number;
}

/** A poll loop's pauses: each call waits the next one. One instance per wait. */
export function backOff({ firstMs = 20, maxMs = 500, factor = 1.5 }: BackOffOptions = {}): () => Promise<void> {
  let next = firstMs;
  return async () => {
    const pause = next;
    next = Math.min(maxMs, next * factor);
    await new Promise<void>((resolve) => setTimeout(resolve, pause));
  };
}
