// No green gate on nothing: a target whose hosted page goes through every step (connect, pair, pay; the wallet sends a
// transaction) but never takes money fails the run. The target is `stablepay start --no-control` with its payment URLs
// pointing at the suite's never-settling test page (`--pay-url`). customer.settles fails on the documented
// PAY-STATE-ACTIVE-TO-PROCESSING with the wallet log and the screenshots; every other customer payment of the run is
// not attempted, naming that payment, so the run ends after one settle time-out instead of one per payment.
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runConformance } from '../index.ts';
import { childProcesses } from '../test-support/child-processes.ts';
import { hasLibfaketime } from '../black-box/faketime-clock.ts';
import { browserSkipReason } from './chromium.ts';
import { startCheckoutPages, type CheckoutPages } from './test-pages/checkout-pages.ts';

const bin = fileURLToPath(new URL('../../bin/stablepay.js', import.meta.url));

describe.skipIf(!hasLibfaketime() || browserSkipReason !== undefined)('a target whose page never settles', () => {
  let pages: CheckoutPages;
  beforeAll(async () => {
    pages = await startCheckoutPages({ fallback: 'never-settles' });
  });
  afterAll(async () => pages?.close());

  it('fails the run once, on a documented requirement with the evidence, and attempts no other customer payment', async () => {
    const reportDir = mkdtempSync(join(tmpdir(), 'stablepay-never-settles-'));
    const outcome = await runConformance({
      formats: ['json'],
      progress: false,
      write: () => undefined,
      reportDir,
      targetCommand: `exec ${JSON.stringify(process.execPath)} ${JSON.stringify(bin)} start --no-control --no-demo-payment --pay-url ${pages.origin}`,
      only: ['browser', 'external-id.unique-while-processing-or-successful'],
      // The page never settles whatever the wait: 15 s instead of the default 90 s shows the flag and keeps CI short.
      customerSettleTimeout: 15,
    });
    expect(outcome.exitCode).toBe(1);
    const byId = new Map(outcome.result.checks.filter((c) => c.result !== 'skipped').map((c) => [c.id, c]));

    const settles = byId.get('customer.settles')!;
    expect(settles.result).toBe('fail');
    expect(settles.failures).toHaveLength(1);
    const [failure] = settles.failures;
    expect(failure).toMatchObject({
      requirement: 'PAY-STATE-ACTIVE-TO-PROCESSING',
      severity: 'fail',
      title: 'A payment the customer paid through the hosted page never settled',
    });
    expect(failure!.message).toMatch(
      /^The customer completed every step on the page \(connect \d+ ms, pick \d+ ms, pay \d+ ms; the wallet signed or sent eth_sendTransaction \(transaction\)\) and GET \/v1\/payments\/[0-9a-f-]+ showed ACTIVE for 15 s after the pay click, never PROCESSING and then SUCCESSFUL\. The page showed no end state\./,
    );
    expect(failure!.message).toMatch(/eth_requestAccounts answered/);
    expect(failure!.reproduction).toMatch(/^curl .*\/v1\/payments\/[0-9a-f-]+/);
    const screenshots = /screenshots: (.+)$/m.exec(failure!.message)![1]!.split(', ');
    expect(screenshots.length).toBe(2);
    for (const path of screenshots) expect(existsSync(path)).toBe(true);

    // Every other check that needed the customer: not exercised, naming the payment that did not settle; never an error.
    const others = [...byId.values()].filter((c) => c.id !== 'customer.settles');
    expect(others.map((c) => c.id).sort()).toEqual(
      [
        'customer.cancel-while-open',
        'customer.expiry-while-open',
        'customer.failed-by-revert',
        'customer.pay-each-pair',
        'customer.pay-embedded',
        'customer.split-five-sellers',
        'external-id.unique-while-processing-or-successful',
      ].sort(),
    );
    for (const check of others) {
      expect(check.result, check.id).toBe('not-exercised');
      expect(check.reason, check.id).toMatch(
        /^not attempted: payment [0-9a-f-]+ of customer\.settles on 8453\/USDC did not settle: the customer paid and GET showed ACTIVE for 15 s \(reported by customer\.settles\)$/,
      );
    }
    // Only customer.settles opened a page: the others never waited for one.
    const sessions = Object.keys(JSON.parse(readFileSync(join(reportDir, 'customer-wallet.json'), 'utf8')) as Record<string, unknown>);
    expect(sessions).toHaveLength(1);
    expect(sessions[0]).toMatch(/^customer\.settles-/);
    expect(outcome.result.summary.capabilityNotes.join('\n')).toMatch(/step time-outs: .*settle 15 s/);
    expect(outcome.result.summary.capabilityNotes.join('\n')).toMatch(
      /customer: after the first payment that could not be made, no other was attempted: payment [0-9a-f-]+ of customer\.settles/,
    );
    expect(childProcesses()).toEqual([]);
  }, 300_000);
});
