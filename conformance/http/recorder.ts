// Every HTTP call the suite makes is recorded here: the cross-cutting response check validates
// them all, and failures carry curl reproductions built from them. Credentials are stored only as
// labels (the variable a reproduction refers to), never as values.

export type Target = 'service' | 'control';

/** How a recorded request was authenticated, without the secret itself. */
export type CredentialRecord =
  | { kind: 'none' }
  | { kind: 'secret'; label: string }
  | { kind: 'public'; header: string };

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
  durationMs: number;
  transportError: string | null;
  startedAt: string;
}

export class Recorder {
  private readonly exchanges: Exchange[] = [];
  private nextId = 1;
  currentCheck = 'setup';

  add(exchange: Omit<Exchange, 'id' | 'checkId'>): Exchange {
    const recorded: Exchange = { id: this.nextId++, checkId: this.currentCheck, ...exchange };
    this.exchanges.push(recorded);
    return recorded;
  }

  all(target?: Target): Exchange[] {
    return target ? this.exchanges.filter((e) => e.target === target) : [...this.exchanges];
  }

  countFor(checkId: string): number {
    return this.exchanges.filter((e) => e.checkId === checkId).length;
  }

  get size(): number {
    return this.exchanges.length;
  }
}
