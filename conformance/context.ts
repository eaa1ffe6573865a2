// What a check receives: clients for the service and the control API, the webhook receiver, the
// contract, and helpers that turn observations into typed failures. Checks stay plain functions.
import type { PaymentHistories } from './history/payment-histories.ts';
import fc from 'fast-check';
import type { ChainsFile } from '@stablepay/chains/chains-file';
import type { ContractFacade } from './contract-facade.ts';
import type { CustomerAgent } from './customer/agent.ts';
import type { ControlClient, MerchantHandle } from './control/control-client.ts';
import { RequirementError, NotExercisedSignal } from './errors.ts';
import { evidenceOf } from './http/evidence.ts';
import { TransportError, type HttpClient, type HttpResponse } from './http/client.ts';
import { transportTitle } from './http/transport-title.ts';
import { requireBrowserSlot, requireExclusive } from './http/request-scope.ts';
import type { ExchangeJudgements } from './exchange-judgements.ts';
import type { Exchange, Recorder } from './http/recorder.ts';
import type { SecretRegistry } from './http/redact.ts';
import type { ResolvedOptions } from './options.ts';
import type { CreatedPayments } from './created-payments.ts';
import { deriveSeed } from './seed.ts';
import type { CatalogueRequirement, CheckMeta, ExchangeSummary, FastCheckDetails } from './types.ts';
import type { Delivery, WebhookReceiver } from './webhooks/receiver.ts';
import { deliveryEvidence, type DeliveryEvidence } from './webhooks/evidence.ts';
import type { RunEndpoint } from './webhooks/run-endpoint.ts';
import type { PremiseBook, PremiseEvidence, PremiseState } from './premises/book.ts';
import { CheckPremises } from './premises/check-premises.ts';
import type { PremiseId, PremiseValues } from './premises/definitions.ts';
import type { LanePool } from './scheduling/lanes.ts';

/** What a finding rests on. Default: every premise its check had consulted when the finding was recorded. */
export interface FindingOptions {
  /** Exactly the premises this finding depends on; [] when it depends on none. */
  premises?: PremiseId[];
  /** The level of what broke when it is not the requirement's own (a contract violation of an assumed part). */
  level?: 'documented' | 'assumed';
}

/** A failure as a check reports it; severity is decided by the runner from the requirement level. */
export interface Finding {
  requirement: string;
  /** Overrides the catalogue level of `requirement` (the contract validator knows it per violation). */
  level?: 'documented' | 'assumed';
  title: string;
  message: string;
  reproduction: string | null;
  /** The call the finding is about, as sent and answered. */
  exchange?: ExchangeSummary;
  fastCheck?: FastCheckDetails;
  occurrences?: number;
  /** The webhook delivery the finding is about, as received, with what reproduces it. */
  delivery?: DeliveryEvidence;
  /** See FindingOptions. */
  premises?: PremiseId[];
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
  /** What the run-wide checks derive from each recorded response, computed once (in the background as the run goes). */
  judgements?: ExchangeJudgements;
  secrets: SecretRegistry;
  clock: ServerClock;
  /** Set in a black-box run whose target's clock the suite can move. */
  timeTravel?: TimeTravel | null;
  /** Black-box run: the customer agent (pays through the hosted page in a browser) and the chains it pays on. */
  customer?: { agent: CustomerAgent; chains: ChainsFile } | null;
  /** The payments each check created; those still ACTIVE are cancelled when the check ends. */
  createdPayments?: CreatedPayments;
  /** Without a control API: the main merchant's webhook endpoint, shared by the run's checks (webhooks/run-endpoint.ts). */
  runEndpoint?: RunEndpoint | null;
  /** Every view of every payment the run read, through any check (judged at the end by checks/history/). */
  paymentHistories?: PaymentHistories;
  /** Aborted (with a RunStop) when the run must stop: a signal, or --max-run-time. */
  stop?: AbortSignal;
  /** What the run established about the assumed premises (conformance/premises/). */
  premises: PremiseBook;
  /**
   * Black-box run with spare target instances: each a RunServices rebound to its instance, taken by a check that
   * would otherwise hold the main one alone (scheduling/lanes.ts). Null on a lane itself and in other runs.
   */
  lanes?: LanePool<RunServices> | null;
}

export interface PropertyOptions {
  numRuns?: number;
}

export class CheckContext {
  readonly findings: Finding[] = [];
  /** Cited requirements this check judged (a passing or failing assertion, or an explicit judged()). */
  readonly judgedRequirements = new Set<string>();
  /** The premises this check consults (premises/check-premises.ts). */
  readonly premises: CheckPremises;
  cases = 0;
  private readonly cleanups: (() => Promise<void>)[] = [];
  private customerScoped = false;

  constructor(
    readonly check: CheckMeta,
    readonly services: RunServices,
    private readonly progressSink: (message: string) => void,
  ) {
    this.premises = new CheckPremises({
      checkId: check.id,
      declared: check.premises,
      book: services.premises,
      secrets: services.secrets,
      api: () => this.api,
      now: () => this.clock.now(),
    });
  }

  /** Premises this check consulted so far: by default its findings rest on all of them. */
  get consultedPremises(): Set<PremiseId> {
    return this.premises.consulted;
  }

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
    requireBrowserSlot();
    if (!this.customerScoped) {
      this.customerScoped = true;
      this.onCleanup(() => customer.agent.abortOpen(`not attempted: ${this.check.id} ended`, this.check.id));
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
      // Every check on this clock computes "now" from it (an expiresAt 16 minutes ahead): a stale reading would be
      // behind by this move once the check has ended.
      await this.clock.refresh();
      return;
    }
    if (!this.services.timeTravel)
      this.notExercised(
        'no control API and no clock the suite can move (a black-box run with --target-command/--target-image and libfaketime moves it)',
      );
    await requireExclusive('clock', 'moved the clock');
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

  /** The curl line and the call as sent and answered, for a finding about `exchange`. */
  evidence(exchange: Exchange | undefined): Pick<Finding, 'reproduction' | 'exchange'> {
    return evidenceOf(exchange, this.services.secrets);
  }

  /** Records a finding and carries on (soft assertion). */
  fail(requirement: string, title: string, message: string, exchange?: Exchange, options: FindingOptions = {}): void {
    this.assertCited(requirement);
    this.judgedRequirements.add(requirement);
    this.findings.push({
      requirement,
      title,
      message,
      ...this.evidence(exchange),
      ...premisesOf(options, this.consultedPremises),
    });
  }

  /** Records a finding about one webhook delivery, carrying it as received; `secret` (the endpoint's) adds the expected signature. */
  failDelivery(
    requirement: string,
    title: string,
    message: string,
    delivery: Delivery,
    secret?: string,
    options: FindingOptions = {},
  ): void {
    this.assertCited(requirement);
    this.judgedRequirements.add(requirement);
    const { secrets, options: run } = this.services;
    const evidence = deliveryEvidence(delivery, { secrets, reportDir: run.reportDir, ...(secret ? { secret } : {}) });
    // The reproduction of a delivery finding re-posts the delivery (the API findings' curl line, for webhooks).
    this.findings.push({
      requirement,
      title,
      message,
      reproduction: evidence.replay,
      delivery: evidence,
      ...premisesOf(options, this.consultedPremises),
    });
  }

  /** Like expect, for a finding about one webhook delivery (see failDelivery). */
  expectDelivery(
    condition: boolean,
    requirement: string,
    title: string,
    message: string | (() => string),
    delivery: Delivery,
    secret?: string,
    options: FindingOptions = {},
  ): boolean {
    this.markJudged(requirement, title);
    if (!condition) this.failDelivery(requirement, title, typeof message === 'function' ? message() : message, delivery, secret, options);
    return condition;
  }

  /** Records a finding unless `condition` holds; returns the condition. */
  expect(
    condition: boolean,
    requirement: string,
    title: string,
    message: string | (() => string),
    exchange?: Exchange,
    options: FindingOptions = {},
  ): boolean {
    this.markJudged(requirement, title);
    if (!condition) this.fail(requirement, title, typeof message === 'function' ? message() : message, exchange, options);
    return condition;
  }

  /** Like expect, but stops the check: later steps depend on this one. */
  require(
    condition: boolean,
    requirement: string,
    title: string,
    message: string | (() => string),
    exchange?: Exchange,
    options: FindingOptions = {},
  ): asserts condition {
    this.markJudged(requirement, title);
    if (!condition) {
      this.assertCited(requirement);
      this.judgedRequirements.add(requirement);
      throw new RequirementError(requirement, title, typeof message === 'function' ? message() : message, exchange, options.premises);
    }
  }

  /** Stops the check: the status must be one of `expected` ('2xx': any success, where the spec shows no status). */
  requireStatus(
    response: HttpResponse,
    expected: number | number[] | '2xx',
    requirement: string,
    title: string,
    options: FindingOptions = {},
  ): void {
    const ok =
      expected === '2xx'
        ? response.status >= 200 && response.status < 300
        : (Array.isArray(expected) ? expected : [expected]).includes(response.status);
    this.require(
      ok,
      requirement,
      title,
      () =>
        `expected ${expected === '2xx' ? '2xx' : [expected].flat().join(' or ')}, got ${response.status}${redirectNote(response)}: ${response.text.slice(0, 300)}`,
      response.exchange,
      options,
    );
  }

  /**
   * Marks cited requirements as judged by this run where no assertion call shows it (an oracle that returned no
   * violation, a property whose runs all passed). A requirement never judged is not exercised in the matrix.
   */
  judged(...requirements: string[]): void {
    for (const requirement of requirements) {
      this.assertCited(requirement);
      this.judgedRequirements.add(requirement);
    }
  }

  /** A passing step that only prepares the judgement ("Setup: ...") judges nothing. */
  private markJudged(requirement: string, title: string): void {
    if (!title.startsWith('Setup:')) this.judgedRequirements.add(requirement);
  }

  /** The value of an assumed premise: discovered, else declared in the profile, else the simulator's choice. */
  async premise<Id extends PremiseId>(id: Id): Promise<PremiseValues[Id]> {
    return (await this.premises.state(id)).value;
  }

  /** The premise with how the run established it (status and evidence). */
  premiseState<Id extends PremiseId>(id: Id): Promise<PremiseState<Id>> {
    return this.premises.state(id);
  }

  /** This check showed the premise holds by using it (what it sent was answered and read back as sent). */
  confirmPremise<Id extends PremiseId>(id: Id, value: PremiseValues[Id], evidence: PremiseEvidence): void {
    this.premises.confirm(id, value, evidence);
  }

  /** This check showed the premise does not hold (what it sent was refused, or not read back as sent). */
  refutePremise(id: PremiseId, evidence: PremiseEvidence): void {
    this.premises.refute(id, evidence);
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
    // No seed of its own in the report: the run has one, and this property's is derived from it and `key`.
    const fastCheck: FastCheckDetails = { property: key, path: details.counterexamplePath ?? '', numRuns: details.numRuns, counterexample };
    if (error instanceof RequirementError) {
      this.assertCited(error.requirement);
      this.judgedRequirements.add(error.requirement);
      this.findings.push({
        requirement: error.requirement,
        title: error.title,
        message: `${error.message}\nCounterexample: ${counterexample}`,
        ...this.evidence(error.exchange),
        fastCheck,
        premises: error.premises ?? [...this.consultedPremises],
      });
    } else if (error instanceof TransportError && error.exchange.target === 'service') {
      this.findings.push({
        requirement: this.check.requirements[0]!,
        title: transportTitle(error.kind),
        message: `${error.message}\nCounterexample: ${counterexample}`,
        ...this.evidence(error.exchange),
        fastCheck,
      });
    } else if (error instanceof TransportError) {
      throw new NotExercisedSignal(`the control API did not answer: ${error.message}`);
    } else {
      // The property's own code broke: not a finding on the implementation.
      throw new PropertyBroke(name, counterexample, error);
    }
  }

  assertCited(requirement: string): void {
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

/**
 * What a finding rests on: the premises it names, else every premise the check had consulted when it was recorded (a
 * value consulted later cannot have shaped it; one consulted earlier may have).
 */
function premisesOf(options: FindingOptions, consulted: Set<PremiseId>): { premises: PremiseId[]; level?: 'documented' | 'assumed' } {
  return { premises: options.premises ?? [...consulted], ...(options.level ? { level: options.level } : {}) };
}
