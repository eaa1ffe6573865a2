// One outside-in run: a correct in-process simulator, the fault proxy in front of it carrying one
// fault or one negative control, and the conformance suite pointed at the proxy. A fault runs the
// checks citing the requirements it breaks (as the in-process runner does; assumed faults under
// --strict); a control runs every check but the slow one, under --strict, and must pass them all.
import { startServer } from '@stablepay/simulator/server';
import { ALL_CHECKS, runConformance } from '../index.ts';
import { quietLogger } from '../test-support/simulator.ts';
import type { CheckResult, Counts } from '../types.ts';
import { FaultProxy } from './proxy/fault-proxy.ts';
import type { ProxyControl } from './proxy/controls.ts';
import type { ProxyFault } from './proxy/response-faults.ts';
import { MUTATION_SEED } from './run-fault.ts';
import { BROWSER_TAG, SLOW_TAG, targetChecks } from './target-checks.ts';

export type ProxyCase = { kind: 'fault'; fault: ProxyFault } | { kind: 'control'; control: ProxyControl };

export interface ProxyRun {
  case: ProxyCase;
  name: string;
  strict: boolean;
  ran: string[];
  /** Checks that failed, with the requirements their failures name. */
  caughtBy: { id: string; requirements: string[] }[];
  /** Checks that warned or were not exercised (a control must have none). */
  warnedBy: string[];
  notExercised: string[];
  counts: Counts;
  durationMs: number;
}

export const CONTROL_RUNS = 8;

/** A delivery control is judged by every check that receives webhooks; a response control by every check (not the slow one). */
export function controlChecks(control: ProxyControl): string[] {
  const fast = ALL_CHECKS.filter((c) => !c.tags.includes(SLOW_TAG) && !c.tags.includes(BROWSER_TAG));
  const receives = (c: (typeof ALL_CHECKS)[number]): boolean => c.needs.includes('webhook-receiver');
  return (control.response ? fast : fast.filter(receives)).map((c) => c.id);
}

export const nameOf = (c: ProxyCase): string => (c.kind === 'fault' ? c.fault.name : c.control.name);

/** The virtual time of the merchant whose key is `auth` (control-api.yaml `GET /clock`). */
async function controlClockNow(controlUrl: string, auth: string): Promise<number> {
  const response = await fetch(`${controlUrl}/clock`, { headers: auth ? { authorization: auth } : {} });
  const { now } = (await response.json()) as { now: string };
  return Date.parse(now);
}

export async function runProxyCase(proxyCase: ProxyCase, seed = MUTATION_SEED): Promise<ProxyRun> {
  const started = performance.now();
  const server = await startServer({ host: '127.0.0.1', port: 0, logger: quietLogger });
  const rewrite = proxyCase.kind === 'fault' ? proxyCase.fault : proxyCase.control;
  // Timing faults hold deliveries on the service's clock: here the merchant's virtual clock, read through the control API.
  const proxy = new FaultProxy(server.url, rewrite, { targetClock: (auth) => controlClockNow(server.controlUrl!, auth) });
  try {
    const url = await proxy.start();
    const only = proxyCase.kind === 'fault' ? targetChecks(proxyCase.fault, ALL_CHECKS).only : controlChecks(proxyCase.control);
    const strict = proxyCase.kind === 'control' || proxyCase.fault.level === 'assumed';
    // Controls judge breadth, not depth: fewer property runs keep the self-test inside CI's budget.
    const runs = proxyCase.kind === 'control' ? CONTROL_RUNS : undefined;
    const { result } = await runConformance({
      baseUrl: url,
      apiKey: server.simulator.defaultApiKey,
      strict,
      only,
      seed,
      runs,
      formats: ['console'],
      progress: false,
      write: () => {},
    });
    const ran = result.checks.filter((c) => c.result !== 'skipped');
    const ids = (pick: (c: CheckResult) => boolean): string[] => ran.filter(pick).map((c) => c.id);
    return {
      case: proxyCase,
      name: nameOf(proxyCase),
      strict,
      ran: ran.map((c) => c.id),
      caughtBy: ran
        .filter((c) => c.result === 'fail')
        .map((c) => ({ id: c.id, requirements: [...new Set(c.failures.map((f) => f.requirement))] })),
      warnedBy: ids((c) => c.result === 'warn'),
      notExercised: ids((c) => c.result === 'not-exercised'),
      counts: result.summary.counts,
      durationMs: Math.round(performance.now() - started),
    };
  } finally {
    await proxy.close();
    await server.close();
  }
}
