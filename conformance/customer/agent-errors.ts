// What can stop the customer agent short of paying: a step the page did not allow, a page that did not load, an agent
// blocked by an earlier payment that could not be made, a check that ended while its payment was under way, and the
// suite's own step of a payment failing (SuiteStepError: about the suite, never about the page).
import { STEP_TIMEOUTS } from './step-timeouts.ts';

/** A step the page did not let the agent take. */
export class PageStepError extends Error {
  constructor(
    readonly step: string,
    readonly query: string,
    readonly screenshot: string | null,
    detail: string,
  ) {
    super(`${step}: ${detail}; query tried: ${query}; screenshot: ${screenshot ?? 'none (the page was gone)'}`);
    this.name = 'PageStepError';
  }
}

/**
 * The suite's own step of a payment failed (what it does on its chains before the wallet signs: blacklist a seller,
 * stop mining): the page is not at fault and the payment cannot go on. The check ends with this error, at once instead
 * of after the settle time-out, and the agent is not blocked (the next payment does not depend on this one).
 */
export class SuiteStepError extends Error {
  constructor(cause: Error) {
    super(`the suite's own step before the wallet signed failed: ${cause.message.split('\n')[0]}`, { cause });
    this.name = 'SuiteStepError';
  }
}

/** An earlier payment of the run could not be made: this one is not attempted (the reason names it). */
export class CustomerBlockedError extends Error {
  constructor(readonly blockedBy: string) {
    super(`not attempted: ${blockedBy}`);
    this.name = 'CustomerBlockedError';
  }
}

/** The check that wanted this payment has ended (its sessions and queued payments are dropped). */
export class CustomerAbortedError extends Error {
  constructor(reason: string) {
    super(reason);
    this.name = 'CustomerAbortedError';
  }
}

/** The payment page never loaded: nothing about the page can be judged. */
export class PageUnavailableError extends Error {
  constructor(
    readonly url: string,
    cause: string,
  ) {
    super(
      url === '(every page)'
        ? `no browser for the customer: ${cause}`
        : `the payment page ${url} did not load within ${STEP_TIMEOUTS.load / 1000} s (${cause})`,
    );
    this.name = 'PageUnavailableError';
  }
}
