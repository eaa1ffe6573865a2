// Library entry: runConformance(options) runs the suite against an implementation and writes the
// reports. The CLI (cli/conformance.ts) is a thin flag parser over this.
import { packageVersion } from '../contract/package-root.ts';
import { ALL_CHECKS } from './checks/index.ts';
import { exitCodeFor } from './classify.ts';
import { loadCatalogueRequirements, type ContractFacade } from './contract-facade.ts';
import { loadContractFacade } from './contract-adapter.ts';
import type { RunServices, ServerClock } from './context.ts';
import { ControlClient } from './control/control-client.ts';
import { createDispatcher, HttpClient, TransportError } from './http/client.ts';
import { Recorder } from './http/recorder.ts';
import { headerVariable, SecretRegistry } from './http/redact.ts';
import { ConfigError, resolveOptions, UsageError, type ConformanceOptions } from './options.ts';
import { CheckRegistry, selectChecks, unknownSelectors } from './registry.ts';
import { consoleProgress } from './reports/console.ts';
import { jsonGoesToStdout, writeReports } from './reports/index.ts';
import { ndjsonProgress } from './reports/ndjson.ts';
import { assembleResult, runPlan, type RunPlan } from './runner.ts';
import type { Check } from './check.ts';
import type { Capability, RunResult } from './types.ts';
import { WebhookReceiver } from './webhooks/receiver.ts';
import { API_KEY_ENV, CONTROL_TOKEN_ENV, DEFAULTS } from './defaults.ts';
import type { BlackBox } from './target/start-black-box.ts';
import { runAgainstTarget } from './target/run-against-target.ts';
import { prepareIntegrity, recordTraffic, signReports, type IntegrityPlan } from './integrity/integrity-run.ts';
import { startCustomer, type CustomerServices } from './customer/start-customer.ts';
import { customerPathsUsed } from './support/customer-path.ts';
import { PremiseBook } from './premises/book.ts';
import { DISCOVERERS } from './premises/discover/index.ts';
import { declarationsFrom } from './premises/profile.ts';

export type { ConformanceOptions, ProgressEvent } from './options.ts';
export { UsageError, ConfigError } from './options.ts';
export type { RunResult, CheckResult, Failure } from './types.ts';
export type { Check } from './check.ts';
export { ALL_CHECKS } from './checks/index.ts';

export interface ConformanceOutcome {
  exitCode: 0 | 1;
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
    .map((c) => `${c.id.padEnd(40)} ${c.level.padEnd(10)} needs:${(c.needs.join(',') || '-').padEnd(26)} ${c.requirements.join(',')}\n    ${c.title} [${c.tags.join(', ')}]${c.premises.length ? `\n    premises: ${c.premises.join(', ')}` : ''}`)
    .join('\n')}\n`;
}

export async function runConformance(input: ConformanceOptions, deps: RunDependencies = {}): Promise<ConformanceOutcome> {
  // Read before anything starts: an unreadable signing key or a bad record path is a usage error, exit 2.
  const integrity = await prepareIntegrity(input);
  const outcome = !input.targetCommand && !input.targetImage ? await runOn(input, deps, null, integrity) : await runAgainstTarget(input, (resolved, blackBox) => runOn(resolved, deps, blackBox, integrity));
  // Signed last: a black-box target has stopped by now, so its log in the report directory is complete.
  outcome.reportFiles.push(...(await signReports(integrity, { reportDir: input.reportDir ?? DEFAULTS.reportDir, files: outcome.reportFiles, metadata: outcome.result.metadata, write: integrityWriter(input) })));
  return outcome;
}

/**
 * The record line, the signing key and its check command: to the caller's sink when it gave one, else to stderr, so
 * stdout keeps its shape (the console report's last line stays `N passed, N failed`; machine formats stay parseable).
 */
function integrityWriter(input: ConformanceOptions): (text: string) => void {
  return input.write ?? ((text) => void process.stderr.write(text));
}

async function runOn(input: ConformanceOptions, deps: RunDependencies, blackBox: BlackBox | null, integrity: IntegrityPlan): Promise<ConformanceOutcome> {
  const startedAt = new Date();
  const options = resolveOptions(input);
  // A bad profile is a usage error before anything is sent (exit 2).
  const premises = new PremiseBook(DISCOVERERS, declarationsFrom(input.profile));
  const registry = new CheckRegistry(deps.checks ?? ALL_CHECKS);
  const checks = registry.all();
  const unknown = unknownSelectors(checks, [...options.only, ...options.skip]);
  if (unknown.length > 0) throw new UsageError(`--only/--skip: no check matches ${unknown.join(', ')} (see --list)`);
  const catalogue = loadCatalogueRequirements();
  const contract = deps.contract ?? (await loadContractFacade());
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
  const dispatcher = createDispatcher({ keepAlive: blackBox === null });
  const api = new HttpClient({
    baseUrl: options.baseUrl,
    target: 'service',
    recorder,
    secrets,
    credential: { key: options.apiKey, label: API_KEY_ENV },
    timeoutMs: options.requestTimeoutMs,
    dispatcher,
    headers: options.headers,
  });
  let receiver: WebhookReceiver | null = null;
  let customer: CustomerServices | null = null;
  try {
    await preflight(api);
    const notes: string[] = [...(blackBox?.notes ?? [])];
    const control = await probeControl(options.controlUrl, options.controlExplicit, { recorder, secrets, dispatcher, timeoutMs: options.requestTimeoutMs, headers: { ...options.headers, ...(options.controlToken ? { 'x-control-token': options.controlToken } : {}) } }, notes);
    if (options.webhooks) {
      try {
        receiver = await WebhookReceiver.start({ ...options.webhookListen, publicUrl: options.webhookPublicUrl });
        notes.push(`webhook receiver at ${receiver.publicUrl}`);
      } catch (error) {
        throw new ConfigError(`cannot listen on ${options.webhookListen.host}:${options.webhookListen.port}: ${(error as Error).message}`);
      }
    } else notes.push('webhook receiver disabled (--no-webhooks)');
    customer = blackBox ? startCustomer(input, options.reportDir, blackBox.chains, notes) : null;
    const capabilities: Record<Capability, boolean> = { control: control !== null, 'webhook-receiver': receiver !== null, customer: customer !== null };
    const clock = serverClock(control, blackBox?.now);
    await clock.refresh();
    // With a control API the run acts as a merchant of its own: the key it was given (often the
    // simulator's default merchant, which a person may be rehearsing with) only passes the
    // preflight, so that merchant's payments, keys and endpoint stay as they were. The clock is
    // global: a run moves it forward (docs/decisions.md, "Isolation of a conformance run").
    let runApi = api;
    if (control) {
      const runMerchant = await control.createMerchant('conformance run');
      runApi = api.withCredential(runMerchant.credential);
      notes.push('the run acts as a merchant of its own (control API): the given key\'s merchant is left untouched; the virtual clock moves forward for everyone');
    }
    const services: RunServices = {
      options,
      api: runApi,
      control,
      receiver,
      contract,
      catalogue: new Map(catalogue.map((r) => [r.id, r])),
      recorder,
      secrets,
      clock,
      timeTravel: control ? null : (blackBox?.timeTravel ?? null),
      customer,
      premises,
    };
    const selection = selectChecks(orderForRun(checks), options.only, options.skip);
    const plan: RunPlan = { ...selection, capabilities, capabilityNotes: notes };
    customerPathsUsed.clear();
    const results = await runPlan(plan, services);
    if (customerPathsUsed.size > 0) notes.push(`customer actions (control API or browser customer): ${[...customerPathsUsed].join('; ')}`);
    if (customer) notes.push(...(await customer.finish()));
    const result = assembleResult(results, plan, services, catalogue, { startedAt, finishedAt: new Date(), version: packageVersion, ...(blackBox?.started ? { started: blackBox.started } : {}) });
    const exitCode = exitCodeFor(result.summary.counts);
    const reportFiles = await writeReports(result, options.formats, options.reportDir, options.write, {
      jsonToStdout: jsonGoesToStdout(options.formats, options.reportDirExplicit),
      note: (text) => process.stderr.write(text),
      exitCode,
    });
    reportFiles.push(...(await recordTraffic(integrity, { recorder, secrets, tool: result.metadata.tool, write: integrityWriter(input), ...(receiver ? { received: { baseUrl: receiver.publicUrl, deliveries: receiver.all() } } : {}) })));
    return { exitCode, result, reportFiles };
  } finally {
    await customer?.agent.close();
    await receiver?.close();
    await dispatcher.close();
  }
}

/** Cross-cutting checks read what every other check recorded, so they run last. */
function orderForRun(checks: Check[]): Check[] {
  return [...checks.filter((c) => !c.tags.includes('cross-cutting')), ...checks.filter((c) => c.tags.includes('cross-cutting'))];
}

async function preflight(api: HttpClient): Promise<void> {
  let status: number;
  try {
    status = (await api.get('/v1/payments', { limit: 1 })).status;
  } catch (error) {
    if (error instanceof TransportError) throw new ConfigError(`base URL unreachable: ${error.message}`);
    throw error;
  }
  if (status === 401) throw new ConfigError('the implementation refused the API key (401 on GET /v1/payments)');
  if (status >= 500) throw new ConfigError(`the implementation is not healthy: GET /v1/payments answered ${status}`);
}

async function probeControl(
  url: string | null,
  explicit: boolean,
  shared: Pick<ConstructorParameters<typeof HttpClient>[0], 'recorder' | 'secrets' | 'dispatcher' | 'timeoutMs' | 'headers'>,
  notes: string[],
): Promise<ControlClient | null> {
  if (!url) {
    notes.push('control API disabled (--no-control)');
    return null;
  }
  const control = new ControlClient(new HttpClient({ ...shared, baseUrl: url, target: 'control', credential: null }));
  let reason: string;
  try {
    const health = await control.health();
    if (health.status === 200) return control;
    reason = `GET ${url}/health answered ${health.status}`;
  } catch (error) {
    reason = (error as Error).message;
  }
  if (explicit) throw new ConfigError(`control API unusable: ${reason}`);
  notes.push(`no control API at ${url} (${reason}): checks that need it are not exercised`);
  return null;
}

/** `blackBoxNow`: the target's time as a black-box run moves it (libfaketime), when there is no control API to ask. */
function serverClock(control: ControlClient | null, blackBoxNow?: () => number): ServerClock {
  let skewMs = 0;
  const skew = () => (control || !blackBoxNow ? skewMs : blackBoxNow() - Date.now());
  const at = (wallMs: number) => wallMs + skew();
  return {
    now: () => Date.now() + skew(),
    at,
    // A process clock moved from outside (libfaketime) moves the implementation's wall clock too, so it signs with
    // the moved time: a receiver sharing that clock checks t= against it. A control API's virtual clock does not
    // move the signer's wall clock, so then the receiver's own wall clock is the reference (no signatureNow).
    ...(!control && blackBoxNow ? { signatureNow: at } : {}),
    async refresh() {
      if (control) {
        const before = Date.now();
        const state = await control.clock();
        skewMs = Date.parse(state.now) - Math.round((before + Date.now()) / 2);
      }
      return Date.now() + skew();
    },
  };
}
