// Library entry: runConformance(options) runs the suite against an implementation and writes the
// reports. The CLI (cli/conformance.ts) is a thin flag parser over this.
import { packageVersion } from '@stablepay/contract/package-root';
import { ALL_CHECKS } from './checks/index.ts';
import { exitCodeFor } from './classify.ts';
import { checkGateOptions, evaluateGate } from './gate.ts';
import { loadCatalogueRequirements, type ContractFacade } from './contract-facade.ts';
import { loadContractFacade } from './contract-adapter.ts';
import type { RunServices, TimeTravel } from './context.ts';
import { createDispatcher, HttpClient, type RenewableAgent, TransportError, type HttpClientOptions } from './http/client.ts';
import { RequestScope, requireExclusive, runInScope } from './http/request-scope.ts';
import { ExchangeJudgements } from './exchange-judgements.ts';
import { Recorder } from './http/recorder.ts';
import { headerVariable, SecretRegistry } from './http/redact.ts';
import { ConfigError, durationOptionMs, resolveOptions, UsageError, type ConformanceOptions } from './options.ts';
import { CheckRegistry, selectChecks, unknownSelectors } from './registry.ts';
import { consoleProgress } from './reports/console.ts';
import { jsonGoesToStdout, writeReports } from './reports/index.ts';
import { ndjsonProgress } from './reports/ndjson.ts';
import { assembleResult, type RunPlan } from './runner.ts';
import { runPlan } from './run-plan.ts';
import { controlGuard, mainEndpointGuard } from './scheduling/guards.ts';
import { RunStop, runStopper, type RunStopper } from './run-stop.ts';
import { controlSetupStep, preflight, probeControl, serverClock } from './scaffolding.ts';
import type { ExitCode } from './classify.ts';
import type { Check } from './check.ts';
import type { Capability, RunResult } from './types.ts';
import { WebhookReceiver } from './webhooks/receiver.ts';
import { RunEndpoint } from './webhooks/run-endpoint.ts';
import { API_KEY_ENV, CONTROL_TOKEN_ENV, DEFAULTS } from './defaults.ts';
import type { BlackBox } from './black-box/start-black-box.ts';
import { runAgainstTarget, type StartedTargets } from './black-box/run-against-target.ts';
import { laneWorlds } from './black-box/lane-worlds.ts';
import { prepareIntegrity, recordTraffic, signReports, type IntegrityPlan } from './integrity/integrity-run.ts';
import { startCustomer, type CustomerServices } from './customer/start-customer.ts';
import { customerPathsUsed } from './support/customer-path.ts';
import { CreatedPayments } from './created-payments.ts';
import { PaymentHistories } from './history/payment-histories.ts';
import { PremiseBook } from './premises/book.ts';
import { DISCOVERERS } from './premises/discover/index.ts';
import { declarationsFrom } from './premises/profile.ts';

export type { ConformanceOptions, ProgressEvent } from './options.ts';
export { UsageError, ConfigError } from './options.ts';
export { RunStop, stopBySignal } from './run-stop.ts';
export type { ExitCode } from './classify.ts';
export type { RunResult, CheckResult, Failure } from './types.ts';
export type { Check } from './check.ts';
export { ALL_CHECKS } from './checks/index.ts';

export interface ConformanceOutcome {
  exitCode: ExitCode;
  result: RunResult;
  reportFiles: string[];
}

export interface RunDependencies {
  /** Replace the registered checks (self-tests of the runner). */
  checks?: Check[];
  contract?: ContractFacade;
}

export function listChecks(checks: Check[] = ALL_CHECKS): string {
  return `${checks
    .map(
      (c) =>
        `${c.id.padEnd(40)} ${c.level.padEnd(10)} needs:${(c.needs.join(',') || '-').padEnd(26)} ${c.requirements.join(',')}\n    ${c.title} [${c.tags.join(', ')}]${c.premises.length ? `\n    premises: ${c.premises.join(', ')}` : ''}`,
    )
    .join('\n')}\n`;
}

/**
 * Stopped (input.signal aborted with a RunStop, or --max-run-time) before any check ran, the run throws that RunStop:
 * there is nothing to report. Stopped later, it returns the partial reports with `summary.interrupted`.
 */
export async function runConformance(input: ConformanceOptions, deps: RunDependencies = {}): Promise<ConformanceOutcome> {
  // Read before anything starts: an unreadable signing key or a bad record path is a usage error, exit 2.
  const integrity = await prepareIntegrity(input);
  const stopper = runStopper(input.signal, durationOptionMs(input.maxRunTime, '--max-run-time') ?? null);
  let outcome: ConformanceOutcome;
  try {
    // Every request made outside a check (preflight, control API probe, clock) is aborted when the run stops.
    outcome = await runInScope(new RequestScope('setup', stopper.signal), () =>
      !input.targetCommand && !input.targetImage
        ? runOn(input, deps, null, integrity, stopper)
        : runAgainstTarget({ ...input, signal: stopper.signal }, (resolved, blackBox, started) =>
            runOn(resolved, deps, blackBox, integrity, stopper, started),
          ),
    );
  } catch (error) {
    // A request aborted or a start given up because the run was stopping: the stop is the news, not the abort.
    if (stopper.stopped && (error instanceof RunStop || (error instanceof TransportError && error.kind === 'aborted')))
      throw stopper.stopped;
    throw error;
  } finally {
    stopper.dispose();
  }
  // Signed last: a black-box target has stopped by now, so its log in the report directory is complete.
  outcome.reportFiles.push(
    ...(await signReports(integrity, {
      reportDir: input.reportDir ?? DEFAULTS.reportDir,
      files: outcome.reportFiles,
      metadata: outcome.result.metadata,
      write: integrityWriter(input),
    })),
  );
  return outcome;
}

/**
 * The record line, the signing key and its check command: to the caller's sink when it gave one, else to stderr, so
 * stdout keeps its shape (the console report's last line stays `N passed, N failed`; machine formats stay parseable).
 */
function integrityWriter(input: ConformanceOptions): (text: string) => void {
  return input.write ?? ((text) => void process.stderr.write(text));
}

async function runOn(
  input: ConformanceOptions,
  deps: RunDependencies,
  blackBox: BlackBox | null,
  integrity: IntegrityPlan,
  stopper: RunStopper,
  started: StartedTargets = { spares: [], notes: [] },
): Promise<ConformanceOutcome> {
  const startedAt = new Date();
  const options = resolveOptions(input);
  // A bad profile is a usage error before anything is sent (exit 2).
  const premises = new PremiseBook(DISCOVERERS, declarationsFrom(input.profile));
  const registry = new CheckRegistry(deps.checks ?? ALL_CHECKS);
  const checks = registry.all();
  const unknown = unknownSelectors(checks, [...options.only, ...options.skip]);
  if (unknown.length > 0) throw new UsageError(`--only/--skip: no check matches ${unknown.join(', ')} (see --list)`);
  checkGateOptions(input, checks);
  const secrets = new SecretRegistry();
  secrets.add(options.apiKey, API_KEY_ENV);
  if (options.secondApiKey) secrets.add(options.secondApiKey, 'STABLEPAY_SECOND_API_KEY');
  if (options.controlToken) secrets.add(options.controlToken, CONTROL_TOKEN_ENV);
  // Progress printers start after every known secret is registered: ndjson prints whole check results.
  const printer = options.formats.includes('ndjson')
    ? ndjsonProgress(options.write, secrets)
    : options.progress && options.formats.includes('console')
      ? consoleProgress(options.write, { tty: options.tty })
      : null;
  if (printer) {
    const userProgress = options.onProgress;
    options.onProgress = (event) => {
      printer(event);
      userProgress(event);
    };
  }

  // Extra headers (-H) may carry a gateway token: reports show them as variables, never their values.
  for (const [name, value] of Object.entries(options.headers)) secrets.add(value, headerVariable(name));
  const recorder = new Recorder();
  const judgements = new ExchangeJudgements();
  recorder.onRecorded = judgements.recorded;
  const createdPayments = new CreatedPayments();
  const paymentHistories = new PaymentHistories();
  const dispatcher = createDispatcher();
  // What every instance's answers feed (the main one's and each lane's; their run endpoints observe beside it).
  const observeRun: NonNullable<HttpClientOptions['observe']> = (client, request, response) => {
    createdPayments.observe(client, request, response);
    paymentHistories.observe(client, request, response);
  };
  const api = new HttpClient({
    baseUrl: options.baseUrl,
    target: 'service',
    recorder,
    secrets,
    credential: { key: options.apiKey, label: API_KEY_ENV },
    timeoutMs: options.requestTimeoutMs,
    maxResponseBytes: options.maxResponseBytes,
    dispatcher,
    headers: options.headers,
    observe: (client, request, response) => {
      observeRun(client, request, response);
      runEndpoint?.observe(client, request, response);
    },
    // The main merchant's one webhook endpoint: only a check that holds it alone may change it (scheduling/).
    guard: mainEndpointGuard(() => mainKey),
  });
  let mainKey: string | undefined = options.apiKey;
  let receiver: WebhookReceiver | null = null;
  let runEndpoint: RunEndpoint | null = null;
  let customer: CustomerServices | null = null;
  try {
    const notes: string[] = [...(blackBox?.notes ?? []), ...started.notes];
    await preflight(api, notes);
    const controlHeaders = { ...options.headers, ...(options.controlToken ? { 'x-control-token': options.controlToken } : {}) };
    const control = await probeControl(
      options.controlUrl,
      options.controlExplicit,
      {
        recorder,
        secrets,
        dispatcher,
        timeoutMs: options.requestTimeoutMs,
        maxResponseBytes: options.maxResponseBytes,
        headers: controlHeaders,
        guard: controlGuard,
      },
      notes,
    );
    if (options.webhooks) {
      try {
        receiver = await WebhookReceiver.start({
          ...options.webhookListen,
          publicUrl: options.webhookPublicUrl,
          maxBodyBytes: options.maxResponseBytes,
        });
        notes.push(`webhook receiver at ${receiver.publicUrl}`);
      } catch (error) {
        throw new ConfigError(`cannot listen on ${options.webhookListen.host}:${options.webhookListen.port}: ${(error as Error).message}`);
      }
    } else notes.push('webhook receiver disabled (--no-webhooks)');
    customer = blackBox ? startCustomer(input, options.reportDir, blackBox.chains, notes) : null;
    const capabilities: Record<Capability, boolean> = {
      control: control !== null,
      'webhook-receiver': receiver !== null,
      customer: customer !== null,
    };
    // With a control API the run lives on a test clock of its own, when the control API has them: every merchant
    // the run makes is on it and every advance moves it, so no one else's time moves (docs/decisions.md, "Clocks").
    const ownClock = control ? await controlSetupStep("making the run's test clock", () => control.useTestClock()) : false;
    const clock = serverClock(control, blackBox?.now);
    await controlSetupStep('reading its clock', () => clock.refresh());
    // With a control API the run acts as a merchant of its own: the key it was given (often the
    // simulator's default merchant, which a person may be rehearsing with) only passes the
    // preflight, so that merchant's payments, keys and endpoint stay as they were
    // (docs/decisions.md, "Isolation of a conformance run").
    let runApi = api;
    if (control) {
      const runMerchant = await controlSetupStep("creating the run's merchant", () => control.createMerchant('conformance run'));
      runApi = api.withCredential(runMerchant.credential);
      mainKey = runMerchant.credential.key;
      notes.push(
        ownClock
          ? `the run acts as a merchant of its own on a test clock of its own (control API, ${control.testClock}): the given key's merchant and everyone's time are left untouched`
          : `the run acts as a merchant of its own (control API): the given key's merchant is left untouched; the control API has no usable test clocks (${control.testClockMissing ?? 'none made'}), so the shared virtual clock moves forward for everyone`,
      );
    }
    // Loaded once the implementation has answered: an unusable target is reported without waiting for the contract.
    const catalogue = loadCatalogueRequirements();
    const contract = deps.contract ?? (await loadContractFacade());
    const services: RunServices = {
      options,
      api: runApi,
      control,
      receiver,
      contract,
      catalogue: new Map(catalogue.map((r) => [r.id, r])),
      recorder,
      judgements,
      secrets,
      clock,
      timeTravel: control ? null : guardedTimeTravel(blackBox?.timeTravel ?? null, dispatcher),
      // Without a control API the webhook checks share the main merchant's one endpoint, routed by payment.
      runEndpoint: control || !receiver ? null : (runEndpoint = new RunEndpoint(receiver)),
      customer,
      createdPayments,
      paymentHistories,
      stop: stopper.signal,
      premises,
    };
    if (blackBox && !control)
      services.lanes = await laneWorlds(
        services,
        {
          main: blackBox,
          spares: started.spares,
          observe: observeRun,
          guardTimeTravel: (travel) => guardedTimeTravel(travel, dispatcher),
          customer,
        },
        notes,
      );
    const selection = selectChecks(orderForRun(checks), options.only, options.skip);
    const plan: RunPlan = { ...selection, capabilities, capabilityNotes: notes };
    // Judged in the background only for a run that reads the whole run's responses at its end.
    if (plan.selected.some((check) => check.tags.includes('cross-cutting'))) judgements.useContract(contract);
    else judgements.stop();
    customerPathsUsed.clear();
    const { results, interrupted } = await runPlan(plan, services);
    if (customerPathsUsed.size > 0) notes.push(`customer actions (control API or browser customer): ${[...customerPathsUsed].join('; ')}`);
    if (customer) notes.push(...(await customer.finish()));
    const result = assembleResult(results, plan, services, catalogue, {
      startedAt,
      finishedAt: new Date(),
      version: packageVersion,
      ...(blackBox?.started ? { started: blackBox.started } : {}),
      ...(interrupted ? { interrupted } : {}),
    });
    // A gate that does not hold fails the run even when no check failed (a run that judged little is no pass); a run
    // that could not judge (2) or was interrupted (130/143) keeps that code.
    if (input.requireCoverage !== undefined || input.require?.length) result.gate = evaluateGate(input, result.checks, result.coverage);
    const judged = exitCodeFor(result.summary.counts, interrupted);
    const exitCode = judged === 0 && result.gate?.met === false ? 1 : judged;
    const reportFiles = await writeReports(result, options.formats, options.reportDir, options.write, {
      jsonToStdout: jsonGoesToStdout(options.formats, options.reportDirExplicit),
      note: (text) => process.stderr.write(text),
      exitCode,
    });
    reportFiles.push(
      ...(await recordTraffic(integrity, {
        recorder,
        secrets,
        tool: result.metadata.tool,
        write: integrityWriter(input),
        ...(receiver ? { received: { baseUrl: receiver.publicUrl, deliveries: receiver.all() } } : {}),
      })),
    );
    return { exitCode, result, reportFiles };
  } finally {
    judgements.stop();
    await customer?.close();
    // A target the suite started is thrown away; one it was given gets its endpoint back.
    if (!blackBox) await runEndpoint?.close();
    await receiver?.close();
    await dispatcher.close();
  }
}

/** Cross-cutting checks read what every other check recorded, so they run last. */
function orderForRun(checks: Check[]): Check[] {
  return [...checks.filter((c) => !c.tags.includes('cross-cutting')), ...checks.filter((c) => c.tags.includes('cross-cutting'))];
}

/** Moving a black-box target's clock (libfaketime: the whole target and every chain) needs the clock alone. */
function guardedTimeTravel(travel: TimeTravel | null, dispatcher: RenewableAgent): TimeTravel | null {
  if (!travel) return null;
  return {
    via: travel.via,
    advance: async (ms) => {
      await requireExclusive('clock', 'moved the clock');
      await travel.advance(ms);
      // The target now thinks its idle connections timed out: none of them is used again (http/client.ts).
      dispatcher.renew();
    },
  };
}
