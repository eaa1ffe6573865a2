// Discrimination: a stateless mock of the contract (prism mock) must fail the checks that need a
// real implementation, and a conforming implementation seen through prism's validating proxy must
// show no contract violation.
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningServer } from '@stablepay/simulator/server';
import { runConformance, type ConformanceOutcome } from './index.ts';
import { startPrism, type PrismProcess } from './test-support/prism.ts';
import { startSimulator } from './test-support/simulator.ts';
import type { ResultKind } from './types.ts';

const byResult = (outcome: ConformanceOutcome, kind: ResultKind) =>
  outcome.result.checks
    .filter((c) => c.result === kind)
    .map((c) => c.id)
    .sort();

describe('against prism mock openapi.yaml (stateless)', () => {
  let prism: PrismProcess;
  let outcome: ConformanceOutcome;

  beforeAll(async () => {
    prism = await startPrism(['mock', 'openapi.yaml']);
    outcome = await runConformance({
      baseUrl: prism.url,
      apiKey: 'pk_prismMockKey0000000000000001',
      reportDir: await mkdtemp(join(tmpdir(), 'cf-prism-mock-')),
      seed: 20261121,
      runs: 3,
      webhookWaitMs: 1_000,
      skip: ['slow'],
      write: () => {},
    });
  }, 180_000);

  afterAll(async () => {
    await prism?.stop();
  });

  it('fails the checks that need state, validation, auth or webhooks', () => {
    expect(outcome.exitCode).toBe(1);
    expect(byResult(outcome, 'fail')).toEqual([
      'api-keys.management', // the example key, never the created one
      'auth.malformed-credentials', // accepts any Bearer value
      'auth.revoked-key',
      'auth.unknown-key',
      'create.field-rules', // 422 instead of 400 with errors[]
      'create.valid-requests', // echoes the example, not the request
      'external-id.concurrent-burst', // every create wins
      'external-id.duplicate-active',
      'fees.split-properties',
      'history.payment-invariants', // the example payment's fees are not those of the payment the run asked for
      'lifecycle.cancel', // cancel-then-get still ACTIVE; unknown ids 200
      'pagination.cursor-walk', // the example page never advances
      'pagination.page-size',
      'rate-limit.header-semantics', // the example headers never count down
      'rate-limit.headers-every-response', // prism's own 401/422 lack them
      'response.conformance', // prism's own 401/422 are not in the contract
      'web3.json-rpc-proxy', // 422 for JSON-RPC errors; unknown chains answered
      'webhook-config.rotate-and-deliveries', // nothing is ever delivered
      'webhooks.signature', // nothing is ever delivered
      'webhooks.test-event',
    ]);
  });

  it('warns where the mock shows none of its own choices: the whitelist it echoes is not the one sent, no key limit is reached', () => {
    const check = outcome.result.checks.find((c) => c.id === 'api-keys.limit-and-whitelist')!;
    expect(check.result).toBe('warn');
    expect(check.failures.every((f) => f.severity === 'warn')).toBe(true);
    expect(outcome.result.premises.find((p) => p.id === 'api-keys.limit')?.status).toBe('refuted');
  });

  it('does not pretend: checks needing the control API are not exercised', () => {
    expect(byResult(outcome, 'not-exercised')).toEqual([
      'analytics.export-csv',
      'analytics.summary',
      'auth.expired-key',
      'auth.merchant-isolation',
      'control.response-conformance', // no control API calls to judge
      'customer.cancel-while-open', // the browser customer needs the suite's own chains (a black-box run)
      'customer.expiry-while-open',
      'customer.failed-by-revert',
      'customer.pay-each-pair',
      'customer.pay-embedded',
      'customer.settles',
      'customer.split-five-sellers',
      'external-id.reuse-after-expiry-or-failure',
      'external-id.unique-while-processing-or-successful',
      'history.events-against-history',
      'ledger.one-per-settlement',
      'lifecycle.expiry', // no control API and no clock the suite can move
      'lifecycle.state-fields',
      'lifecycle.state-model',
      'payouts.lifecycle',
      'rate-limit.limit-exceeded', // limit out of reach without a control API
      'webhook-config.endpoint-records',
      'webhooks.lifecycle-events',
      'webhooks.no-created-event', // nothing arrives, so the silence proves nothing
      'webhooks.no-created-event-sweep', // likewise over the whole run
      'webhooks.retry-schedule',
    ]);
    expect(outcome.result.summary.capabilities.control).toBe(false);
  });

  it('passes only what a stateless mock can honestly pass', () => {
    // prism answers invalid limits with the contract's documented 400 example, which names `limit`.
    // Its bodies are the contract's examples, so the field formats hold; it has no route outside /v1.
    expect(byResult(outcome, 'pass')).toEqual([
      'auth.missing-credentials',
      'external-id.reuse-after-cancel',
      'format.amounts-decimal-strings',
      'format.ids-uuid',
      'format.timestamps-utc-millis',
      'pagination.limit-bounds',
      'versioning.path-prefix-v1',
    ]);
  });
});

describe('through prism proxy openapi.yaml <simulator> --errors', () => {
  let server: RunningServer;
  let prism: PrismProcess;
  let outcome: ConformanceOutcome;

  beforeAll(async () => {
    server = await startSimulator();
    prism = await startPrism(['proxy', 'openapi.yaml', server.url, '--errors']);
    outcome = await runConformance({
      baseUrl: prism.url,
      controlUrl: server.controlUrl!,
      apiKey: server.simulator.defaultApiKey,
      reportDir: await mkdtemp(join(tmpdir(), 'cf-prism-proxy-')),
      runs: 5,
      // Contract-invalid requests are answered by prism itself (422), never reaching the simulator.
      skip: ['negative', 'slow'],
      write: () => {},
    });
  }, 180_000);

  afterAll(async () => {
    await prism?.stop();
    await server?.close();
  });

  it('reports no contract violation and no failure', () => {
    const findings = outcome.result.failures.map((f) => `${f.checkId} [${f.requirement}] ${f.title}: ${f.message}`);
    expect(findings).toEqual([]);
    expect(outcome.result.checks.find((c) => c.id === 'response.conformance')?.result).toBe('pass');
    expect(prism.output()).not.toMatch(/violation/i);
  });
});
