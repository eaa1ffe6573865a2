// Every HTTP call the suite makes is recorded here: the cross-cutting response check validates
// them all, and failures carry curl reproductions built from them. Credentials are stored only as
// labels (the variable a reproduction refers to), never as values.

export type Target = 'service' | 'control';

/** How a recorded request was authenticated, without the secret itself. */
export type CredentialRecord = { kind: 'none' } | { kind: 'secret'; label: string } | { kind: 'public'; header: string };

export interface Exchange {
  id: number;
  checkId: string;
  target: Target;
  method: string;
  url: string;
  /** Request headers with credentials redacted. */
  requestHeaders: Record<string, string>;
  credential: CredentialRecord;
  requestBody: string | undefined;
  status: number | null;
  /** Lower-cased response header names. */
  responseHeaders: Record<string, string>;
  responseBody: string;
  /** Set when the recorder kept only the start of the body (the run's budget for recorded bodies was spent). */
  responseBodyTruncated?: { bytes: number };
  durationMs: number;
  transportError: string | null;
  startedAt: string;
  /** Which spare target instance answered (black-box lanes: 1 for the first spare); absent for the main instance. */
  instance?: number;
}

/**
 * Recorded bodies are kept whole up to this many characters in all; past it only their start is kept, so a server
 * that answers every request with megabytes cannot grow the suite without bound (the HAR of --record copies them
 * once more). A full black-box run against the simulator (about 7,000 requests) records 5.5 MB.
 */
export const RECORDED_BODY_BUDGET = 48 * 1024 * 1024;
const TRUNCATED_KEEP = 4096;

export class Recorder {
  private readonly exchanges: Exchange[] = [];
  private nextId = 1;
  private bodyBudget: number;
  currentCheck = 'setup';
  /** Told of every exchange as it is recorded (exchange-judgements.ts judges answered ones in the background). */
  onRecorded: ((exchange: Exchange) => void) | undefined;

  constructor(bodyBudget = RECORDED_BODY_BUDGET) {
    this.bodyBudget = bodyBudget;
  }

  add(exchange: Omit<Exchange, 'id' | 'checkId'>, checkId = this.currentCheck): Exchange {
    let recorded: Exchange = { id: this.nextId++, checkId, ...exchange };
    if (recorded.responseBody.length > this.bodyBudget) {
      recorded = {
        ...recorded,
        responseBody: recorded.responseBody.slice(0, TRUNCATED_KEEP),
        responseBodyTruncated: { bytes: Buffer.byteLength(recorded.responseBody) },
      };
    }
    this.bodyBudget = Math.max(0, this.bodyBudget - recorded.responseBody.length);
    this.exchanges.push(recorded);
    this.onRecorded?.(recorded);
    return recorded;
  }

  all(target?: Target): Exchange[] {
    return target ? this.exchanges.filter((e) => e.target === target) : [...this.exchanges];
  }

  /** Exchanges with a whole answer to judge: a status and the complete body as it came (not cut off by a failure or the budget). */
  answered(target?: Target): Exchange[] {
    return this.all(target).filter((e) => e.status !== null && e.transportError === null && !e.responseBodyTruncated);
  }

  countFor(checkId: string): number {
    return this.exchanges.filter((e) => e.checkId === checkId).length;
  }

  get size(): number {
    return this.exchanges.length;
  }
}
