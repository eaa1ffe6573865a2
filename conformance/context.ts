// What a check receives: clients for the service and the control API, the webhook receiver, the
// contract, and helpers that turn observations into typed failures. Checks stay plain functions.
import fc from 'fast-check';
import type { ChainsFile } from '@stablepay/chains/chains-file';
import type { ContractFacade } from './contract-facade.ts';
import type { CustomerAgent } from './customer/agent.ts';
import type { ControlClient, MerchantHandle } from './control/control-client.ts';
import { RequirementError, NotExercisedSignal } from './errors.ts';
import { toCurl } from './http/curl.ts';
import { TransportError, type HttpClient, type HttpResponse } from './http/client.ts';
import { transportTitle } from './http/transport-title.ts';
import type { Exchange, Recorder } from './http/recorder.ts';
import type { SecretRegistry } from './http/redact.ts';
import type { ResolvedOptions } from './options.ts';
import type { CreatedPayments } from './support/created-payments.ts';
import { deriveSeed } from './seed.ts';
import type { CatalogueRequirement, CheckMeta, FastCheckDetails } from './types.ts';
import type { Delivery, WebhookReceiver } from './webhooks/receiver.ts';
import { deliveryEvidence, type DeliveryEvidence } from './webhooks/evidence.ts';

/** A failure as a check reports it; severity is decided by the runner from the requirement level. */
export interface Finding {
  requirement: string;
  /** Overrides the catalogue level of `requirement` (the contract validator knows it per violation). */
  level?: 'documented' | 'assumed';
  title: string;
  message: string;
  reproduction: string | null;
  fastCheck?: FastCheckDetails;
  occurrences?: number;
  /** The webhook delivery the finding is about, as received, with what reproduces it. */
  delivery?: DeliveryEvidence;
}

export interface ServerClock {
  /** Best estimate of the implementation's current time (ms since epoch). */
  now(): number;
  /** Re-reads the implementation's clock (control API) and returns it. */
  refresh(): Promise<number>;
  /** The implementation's time at a given local wall-clock instant (ms). */
  at(wallMs: number): number;
  /**
   * The "current time" a receiver checks a signature's t= against (spec §6 step 2), at a local
   * wall-clock instant. Absent: the receiver's own wall clock, as a merchant's receiver does, even
   * when a control API has moved the implementation's virtual clock. A run that moves the
   * implementation's process clock from outside sets it to `at`.
   */
  signatureNow?(wallMs: number): number;
}

/** Moves the implementation's clock from outside when there is no control API (libfaketime in a black-box run). */
export interface TimeTravel {
  /** How the clock is moved, for notes and reasons. */
  readonly via: string;
  advance(ms: number): Promise<void>;
}

export interface RunServices {
  options: ResolvedOptions;
  api: HttpClient;
  control: ControlClient | null;
  receiver: WebhookReceiver | null;
  contract: ContractFacade;
  catalogue: Map<string, CatalogueRequirement>;
  recorder: Recorder;
  secrets: SecretRegistry;
  clock: ServerClock;
  /** Set in a black-box run whose target's clock the suite can move. */
  timeTravel?: TimeTravel | null;
  /** Black-box run: the customer agent (pays through the hosted page in a browser) and the chains it pays on. */
  customer?: { agent: CustomerAgent; chains: ChainsFile } | null;
  /** The payments each check created; those still ACTIVE are cancelled when the check ends. */
  createdPayments?: CreatedPayments;
  /** Aborted (with a RunStop) when the run must stop: a signal, or --max-run-time. */
  stop?: AbortSignal;
}

export interface PropertyOptions {
  numRuns?: number;
}

export class CheckContext {
  readonly findings: Finding[] = [];
  cases = 0;
  private readonly cleanups: (() => Promise<void>)[] = [];
  private customerScoped = false;

  constructor(
    readonly check: CheckMeta,
    readonly services: RunServices,
    private readonly progressSink: (message: string) => void,
  ) {}

  get options(): ResolvedOptions {
    return this.services.options;
  }

  get api(): HttpClient {
    return this.services.api;
  }

  get contract(): ContractFacade {
    return this.services.contract;
  }

  get clock(): ServerClock {
    return this.services.clock;
  }

  /** The control API, or not-exercised (checks that declare `needs: ['control']` never see this). */
  get control(): ControlClient {
    if (!this.services.control) throw new NotExercisedSignal('no control API');
    return this.services.control;
  }

  /** The browser customer and its chains, or not-exercised. A check's pages and queued payments end with the check. */
  get customer(): { agent: CustomerAgent; chains: ChainsFile } {
    const customer = this.services.customer;
    if (!customer)
      this.notExercised(
        'no customer agent (a black-box run with --target-command/--target-image pays through the hosted page in a browser)',
      );
    if (!this.customerScoped) {
      this.customerScoped = true;
      this.onCleanup(() => customer.agent.abortOpen(`not attempted: ${this.check.id} ended`));
    }
    return customer;
  }

  /** Which path moves payments as the customer in this run: the control API when present, else the browser customer. */
  get customerPath(): 'control' | 'browser' | null {
    if (this.services.control) return 'control';
    return this.services.customer ? 'browser' : null;
  }

  get receiver(): WebhookReceiver {
    if (!this.services.receiver) throw new NotExercisedSignal('no webhook receiver');
    return this.services.receiver;
  }

  /**
   * Move the implementation's clock forward: through the control API when there is one, else from outside
   * (libfaketime, black-box run); with neither the check is not exercised.
   */
  async advanceClock(ms: number): Promise<void> {
    if (this.services.control) {
      await this.services.control.advance(ms);
      return;
    }
    if (!this.services.timeTravel)
      this.notExercised(
        'no control API and no clock the suite can move (a black-box run with --target-command/--target-image and libfaketime moves it)',
      );
    await this.services.timeTravel.advance(ms);
  }

  /** True when advanceClock() can move the implementation's clock. */
  get canMoveClock(): boolean {
    return Boolean(this.services.control ?? this.services.timeTravel);
  }

  progress(message: string): void {
    this.progressSink(message);
  }

  addCases(count = 1): void {
    this.cases += count;
  }

  onCleanup(fn: () => Promise<void>): void {
    this.cleanups.push(fn);
  }

  async runCleanups(): Promise<void> {
    for (const fn of this.cleanups.reverse()) {
      try {
        await fn();
      } catch {
        // Cleanup is best effort; the check's findings stand on their own.
      }
    }
  }

  reproduce(exchange: Exchange | undefined): string | null {
    return exchange ? toCurl(exchange, this.services.secrets) : null;
  }

  /** Records a finding and carries on (soft assertion). */
  fail(requirement: string, title: string, message: string, exchange?: Exchange): void {
    this.assertCited(requirement);
    this.findings.push({ requirement, title, message, reproduction: this.reproduce(exchange) });
  }

  /** Records a finding about one webhook delivery, carrying it as received; `secret` (the endpoint's) adds the expected signature. */
  failDelivery(requirement: string, title: string, message: string, delivery: Delivery, secret?: string): void {
    this.assertCited(requirement);
    const { secrets, options } = this.services;
    const evidence = deliveryEvidence(delivery, { secrets, reportDir: options.reportDir, ...(secret ? { secret } : {}) });
    // The reproduction of a delivery finding re-posts the delivery (the API findings' curl line, for webhooks).
    this.findings.push({ requirement, title, message, reproduction: evidence.replay, delivery: evidence });
  }

  /** Like expect, for a finding about one webhook delivery (see failDelivery). */
  expectDelivery(
    condition: boolean,
    requirement: string,
    title: string,
    message: string | (() => string),
    delivery: Delivery,
    secret?: string,
  ): boolean {
    if (!condition) this.failDelivery(requirement, title, typeof message === 'function' ? message() : message, delivery, secret);
    return condition;
  }

  /** Records a finding unless `condition` holds; returns the condition. */
  expect(condition: boolean, requirement: string, title: string, message: string | (() => string), exchange?: Exchange): boolean {
    if (!condition) this.fail(requirement, title, typeof message === 'function' ? message() : message, exchange);
    return condition;
  }

  /** Like expect, but stops the check: later steps depend on this one. */
  require(
    condition: boolean,
    requirement: string,
    title: string,
    message: string | (() => string),
    exchange?: Exchange,
  ): asserts condition {
    if (!condition) {
      this.assertCited(requirement);
      throw new RequirementError(requirement, title, typeof message === 'function' ? message() : message, exchange);
    }
  }

  /** Stops the check: the status must be one of `expected`. */
  requireStatus(response: HttpResponse, expected: number | number[], requirement: string, title: string): void {
    const statuses = Array.isArray(expected) ? expected : [expected];
    this.require(
      statuses.includes(response.status),
      requirement,
      title,
      () => `expected ${statuses.join(' or ')}, got ${response.status}${redirectNote(response)}: ${response.text.slice(0, 300)}`,
      response.exchange,
    );
  }

  notExercised(reason: string): never {
    throw new NotExercisedSignal(reason);
  }

  /** A merchant of its own for this check (needs the control API). */
  async newMerchant(purpose: string): Promise<{ merchant: MerchantHandle; api: HttpClient }> {
    const merchant = await this.control.createMerchant(`conformance ${this.check.id} ${purpose}`);
    return { merchant, api: this.api.withCredential(merchant.credential) };
  }

  seedFor(property: string): number {
    return deriveSeed(this.options.seed, `${this.check.id}/${property}`);
  }

  /**
   * Runs a fast-check property. A counterexample becomes a finding with the seed, the replay path
   * and a command line that replays it; the requirement comes from the RequirementError thrown.
   */
  async property<T>(
    name: string,
    arbitrary: fc.Arbitrary<T>,
    predicate: (value: T) => Promise<void>,
    options: PropertyOptions = {},
  ): Promise<void> {
    const key = `${this.check.id}/${name}`;
    const seed = this.seedFor(name);
    const numRuns = options.numRuns ?? this.options.runs;
    const path = this.options.replay[key];
    const details = await fc.check(
      fc.asyncProperty(arbitrary, async (value) => {
        this.cases++;
        await predicate(value);
      }),
      { seed, numRuns, path, interruptAfterTimeLimit: this.options.propertyTimeLimitMs, markInterruptAsFailure: false },
    );
    if (!details.failed) return;
    const error = details.errorInstance;
    if (error instanceof NotExercisedSignal) throw error;
    // A request aborted because the run is stopping is no counterexample: the runner ends the check as interrupted.
    if (error instanceof TransportError && error.kind === 'aborted') throw error;
    const counterexample = this.services.secrets.scrub(fc.stringify(details.counterexample));
    const fastCheck: FastCheckDetails = {
      seed,
      path: details.counterexamplePath ?? '',
      numRuns: details.numRuns,
      counterexample,
      replay: `stablepay conformance --base-url ${this.options.baseUrl} --only ${this.check.id} --seed ${this.options.seed} --replay ${key}=${details.counterexamplePath ?? ''}`,
    };
    if (error instanceof RequirementError) {
      this.assertCited(error.requirement);
      this.findings.push({
        requirement: error.requirement,
        title: error.title,
        message: `${error.message}\nCounterexample: ${counterexample}`,
        reproduction: this.reproduce(error.exchange),
        fastCheck,
      });
    } else if (error instanceof TransportError && error.exchange.target === 'service') {
      this.findings.push({
        requirement: this.check.requirements[0]!,
        title: transportTitle(error.kind),
        message: `${error.message}\nCounterexample: ${counterexample}`,
        reproduction: this.reproduce(error.exchange),
        fastCheck,
      });
    } else if (error instanceof TransportError) {
      throw new NotExercisedSignal(`the control API did not answer: ${error.message}`);
    } else {
      // The property's own code broke: not a finding on the implementation.
      throw new PropertyBroke(name, counterexample, error);
    }
  }

  private assertCited(requirement: string): void {
    if (!this.check.requirements.includes(requirement)) {
      throw new Error(`check ${this.check.id} reported ${requirement}, which it does not cite`);
    }
  }
}

/** A property whose predicate threw something other than a finding: the runner makes it the check's `error` (or not-exercised). */
class PropertyBroke extends Error {
  constructor(property: string, counterexample: string, cause: unknown) {
    super(
      `property ${property} broke on ${counterexample}: ${cause instanceof Error ? `${cause.name}: ${cause.message}` : String(cause)}`,
      { cause },
    );
    this.name = 'PropertyBroke';
    if (cause instanceof Error && cause.stack) this.stack = `${this.name}: ${this.message}\n${cause.stack}`;
  }
}

/** A 3xx is judged as it was answered: redirects are never followed, and the finding says where it pointed. */
function redirectNote(response: HttpResponse): string {
  return response.status >= 300 && response.status < 400
    ? ` (a redirect${response.headers.location ? ` to ${response.headers.location}` : ''}, which the suite does not follow)`
    : '';
}
