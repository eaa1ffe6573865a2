// What the run-wide checks derive from one recorded response (its parsed body, its fields, the contract's violations): pure
// functions of the exchange, computed once and shared by every check that reads them. Each answered exchange is also
// judged in the background as soon as it is recorded, a few milliseconds at a time, while the run goes on: the run's
// last checks mostly wait (on a page, a receiver, a clock), so the cross-cutting checks that read the whole run at
// its end find most of the work done instead of doing all of it on one core while the other idles. Whenever it is
// computed, the result is the same: the verdicts do not depend on how much the background got through.
import type { ContractFacade, ContractViolation } from './contract-facade.ts';
import type { Exchange } from './http/recorder.ts';

/** A field of a JSON body: its key, its value and its JSON pointer. */
export interface BodyField {
  key: string;
  value: unknown;
  pointer: string;
}

/** A response body as the run-wide checks read it: JSON when it parses, else its text (none when empty). */
export type ParsedBody = { kind: 'empty' } | { kind: 'json'; value: unknown } | { kind: 'text'; value: string };

/** Background work per turn of the event loop, so the run's own timers and sockets are never held up for long. */
const SLICE_MS = 4;

export class ExchangeJudgements {
  private readonly bodies = new WeakMap<Exchange, ParsedBody>();
  private readonly violations = new WeakMap<Exchange, ContractViolation[]>();
  private readonly fieldLists = new WeakMap<Exchange, BodyField[]>();
  private queue: Exchange[] = [];
  /** The next queued exchange to judge. */
  private next = 0;
  private contract: ContractFacade | undefined;
  private scheduled = false;
  /** Set by useContract: the background works from then on (what was recorded before waits for it). */
  private started = false;
  private stopped = false;

  /** The contract to judge by, once loaded (after the preflight); background judging starts then. */
  useContract(contract: ContractFacade): void {
    this.contract = contract.available ? contract : undefined;
    this.started = true;
    this.schedule();
  }

  /** The recorder's listener: an answered exchange is queued for the background. */
  readonly recorded = (exchange: Exchange): void => {
    if (this.stopped || !isWhole(exchange)) return;
    this.queue.push(exchange);
    this.schedule();
  };

  /** No more background work (the run is ending); what is asked for later is computed on demand. */
  stop(): void {
    this.stopped = true;
    this.queue = [];
    this.next = 0;
  }

  body(exchange: Exchange): ParsedBody {
    let parsed = this.bodies.get(exchange);
    if (!parsed) this.bodies.set(exchange, (parsed = parseBody(exchange.responseBody)));
    return parsed;
  }

  /** Every field of a JSON body, depth first in document order (none for another body). */
  fields(exchange: Exchange): BodyField[] {
    let found = this.fieldLists.get(exchange);
    if (!found) {
      const body = this.body(exchange);
      found = [];
      if (body.kind === 'json') walk(body.value, '', found);
      this.fieldLists.set(exchange, found);
    }
    return found;
  }

  /** The contract's violations for this response (`contract` when the checks' facade differs from the run's). */
  contractViolations(exchange: Exchange, contract: ContractFacade): ContractViolation[] {
    if (contract !== this.contract) return validate(contract, exchange, this.body(exchange));
    let found = this.violations.get(exchange);
    if (!found) this.violations.set(exchange, (found = validate(contract, exchange, this.body(exchange))));
    return found;
  }

  private schedule(): void {
    if (!this.started || this.scheduled || this.stopped || this.next >= this.queue.length) return;
    this.scheduled = true;
    setImmediate(() => {
      this.scheduled = false;
      const until = performance.now() + SLICE_MS;
      while (this.next < this.queue.length && performance.now() < until) {
        const exchange = this.queue[this.next++]!;
        this.fields(exchange);
        if (this.contract) this.contractViolations(exchange, this.contract);
      }
      if (this.next === this.queue.length) {
        this.queue = [];
        this.next = 0;
      }
      this.schedule();
    }).unref();
  }
}

/** Exchanges with a whole answer (as Recorder.answered keeps them): only those are judged. */
const isWhole = (e: Exchange): boolean =>
  e.target === 'service' && e.status !== null && e.transportError === null && !e.responseBodyTruncated;

export function parseBody(text: string): ParsedBody {
  if (text.length === 0) return { kind: 'empty' };
  try {
    return { kind: 'json', value: JSON.parse(text) };
  } catch {
    return { kind: 'text', value: text };
  }
}

const paths = new WeakMap<Exchange, string>();

/** The path the exchange requested (read once per exchange). */
export function pathOf(exchange: Exchange): string {
  let path = paths.get(exchange);
  if (path === undefined) paths.set(exchange, (path = new URL(exchange.url).pathname));
  return path;
}

function walk(node: unknown, pointer: string, into: BodyField[]): void {
  if (Array.isArray(node)) {
    node.forEach((item, index) => walk(item, `${pointer}/${index}`, into));
    return;
  }
  if (node === null || typeof node !== 'object') return;
  for (const [key, value] of Object.entries(node as Record<string, unknown>)) {
    const at = `${pointer}/${key}`;
    into.push({ key, value, pointer: at });
    walk(value, at, into);
  }
}

/** The body as the contract validators take it: the JSON value, else the text, none when empty. */
export const bodyValue = (body: ParsedBody): unknown => (body.kind === 'empty' ? undefined : body.value);

function validate(contract: ContractFacade, exchange: Exchange, body: ParsedBody): ContractViolation[] {
  return contract.validateResponse({
    method: exchange.method,
    path: pathOf(exchange),
    status: exchange.status!,
    headers: exchange.responseHeaders,
    body: bodyValue(body),
  });
}
