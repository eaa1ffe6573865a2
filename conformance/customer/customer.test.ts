// The black-box customer: the page contract's file format, and three bounded black-box runs of the simulator
// (`stablepay start --no-control`): every browser check passes with the wallet log written and no key in any report;
// a page contract naming an element the page lacks fails with the query tried and a screenshot; a payment page that
// never loads leaves the browser checks not exercised, never passed, and costs its time-out once.
import { existsSync, mkdtempSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { OPERATOR_KEY, USDC_PROXY_ADMIN_KEY } from '@stablepay/chains/roles';
import { testAccounts } from '@stablepay/chains/test-accounts';
import { runConformance } from '../index.ts';
import { UsageError } from '../options.ts';
import { hasLibfaketime } from '../black-box/faketime-clock.ts';
import { browserSkipReason } from './chromium.ts';
import { DEFAULT_PAGE_CONTRACT, loadPageContract, pairName } from './page-contract.ts';
import { childProcesses } from '../test-support/child-processes.ts';

const bin = fileURLToPath(new URL('../../bin/stablepay.js', import.meta.url));
const simulator = (extra = '') =>
  `exec ${JSON.stringify(process.execPath)} ${JSON.stringify(bin)} start --no-control --no-demo-payment${extra}`;
const hasFaketime = hasLibfaketime();
const dir = () => mkdtempSync(join(tmpdir(), 'stablepay-customer-test-'));
const quiet = { formats: ['json' as const], progress: false, write: () => undefined };
const BROWSER_CHECKS = [
  'customer.settles',
  'customer.pay-each-pair',
  'customer.pay-embedded',
  'customer.split-five-sellers',
  'customer.failed-by-revert',
  'customer.cancel-while-open',
  'customer.expiry-while-open',
];

const children = childProcesses;

describe('page contract file', () => {
  const write = (content: string) => {
    const path = join(dir(), 'page.json');
    writeFileSync(path, content);
    return path;
  };

  it('defaults to our page and merges overrides field by field', () => {
    expect(loadPageContract(undefined)).toEqual(DEFAULT_PAGE_CONTRACT);
    const contract = loadPageContract(
      write(JSON.stringify({ connect: { name: '^Use wallet$' }, pair: { role: 'option', name: '{token} on {chain}' } })),
    );
    expect(contract.connect).toEqual({ role: 'button', name: '^Use wallet$' });
    expect(pairName(contract, 'BNB Smart Chain', 'USDT').test('USDT on BNB Smart Chain')).toBe(true);
    expect(pairName(DEFAULT_PAGE_CONTRACT, 'Polygon', 'USDT').test('Polygon · USDT 12.000000 USDT + ≈0.01 USDT network fee')).toBe(true);
    expect(pairName(DEFAULT_PAGE_CONTRACT, 'Polygon', 'USDT').test('Polygon · USDC')).toBe(false);
  });

  it('refuses a bad file with one sentence (usage error)', () => {
    expect(() => loadPageContract('/nonexistent/page.json')).toThrow(UsageError);
    expect(() => loadPageContract(write('{"conect": {}}'))).toThrow(
      '--page-contract: unknown entry "conect" (known: connect, pair, pay, state)',
    );
    expect(() => loadPageContract(write('{"pay": {"role": "div"}}'))).toThrow(/^--page-contract: "pay.role" must be one of button, radio/);
    expect(() => loadPageContract(write('{"pay": {"name": "(("}}'))).toThrow(
      '--page-contract: "pay.name" is not a valid regular expression',
    );
  });
});

describe.skipIf(!hasFaketime || browserSkipReason !== undefined)('black-box customer against `stablepay start --no-control`', () => {
  it('pays on every pair, splits over 5 sellers, fails by a revert, sees cancel and expiry on an open page; logs every wallet request', async () => {
    const reportDir = dir();
    const outcome = await runConformance({ ...quiet, targetCommand: simulator(), only: ['browser'], reportDir });
    const results = Object.fromEntries(outcome.result.checks.filter((c) => c.result !== 'skipped').map((c) => [c.id, c.result]));
    const failures = outcome.result.failures.map((f) => `${f.checkId} [${f.requirement}] ${f.message}`);
    expect(failures).toEqual([]);
    expect(results).toEqual(Object.fromEntries(BROWSER_CHECKS.map((id) => [id, 'pass'])));
    const notes = outcome.result.summary.capabilityNotes.join('\n');
    expect(outcome.result.summary.capabilities.customer).toBe(true);
    expect(notes).toMatch(
      /customer: pays through the hosted page in Chromium .*step time-outs: load 30 s, connect 20 s, pick 15 s, pay 15 s, settle 90 s, follow 30 s/,
    );
    const log = JSON.parse(readFileSync(join(reportDir, 'customer-wallet.json'), 'utf8')) as Record<
      string,
      { method: string; outcome: string }[]
    >;
    const methods = Object.values(log)
      .flat()
      .map((e) => e.method);
    expect(methods).toContain('eth_requestAccounts');
    expect(methods).toContain('personal_sign');
    // No key of the chains file (blacklister, funded accounts) and no API key in any report or log.
    const everything = [
      readFileSync(join(reportDir, 'conformance.json'), 'utf8'),
      readFileSync(join(reportDir, 'customer-wallet.json'), 'utf8'),
    ].join('\n');
    for (const key of [OPERATOR_KEY, USDC_PROXY_ADMIN_KEY, ...testAccounts().map((a) => a.privateKey)])
      expect(everything).not.toContain(key.slice(2));
    expect(everything).not.toMatch(/pk_[A-Za-z0-9]{20,}/);
    expect(children()).toEqual([]);
  }, 240_000);

  it("fails a page without the contract's element with the query tried and a screenshot, and does not hang", async () => {
    const reportDir = dir();
    const contract = join(reportDir, 'page.json');
    writeFileSync(contract, JSON.stringify({ pay: { name: '^Purchase now$' } }));
    const outcome = await runConformance({
      ...quiet,
      targetCommand: simulator(),
      only: ['customer.split-five-sellers'],
      pageContract: contract,
      reportDir,
    });
    const check = outcome.result.checks.find((c) => c.id === 'customer.split-five-sellers')!;
    expect(check.result).toBe('warn'); // PAGE-* requirements are assumed
    const failure = outcome.result.failures.find((f) => f.checkId === check.id)!;
    expect(failure.requirement).toBe('PAGE-PAY-ACTION');
    expect(failure.message).toContain("query tried: getByRole('button', { name: /^Purchase now$/i })");
    const screenshot = /screenshot: (\S+\.png)/.exec(failure.message)?.[1];
    expect(screenshot && existsSync(screenshot)).toBe(true);
    expect(readdirSync(join(reportDir, 'customer-screenshots')).length).toBeGreaterThan(0);
  }, 120_000);

  it('leaves the browser checks not exercised when the payment page never loads', async () => {
    const outcome = await runConformance({
      ...quiet,
      targetCommand: simulator(' --pay-url http://127.0.0.1:9'),
      only: ['customer.cancel-while-open', 'customer.split-five-sellers'],
      // One after another, so the second check meets the blocked agent (side by side both wait for the page at once).
      workers: 1,
      reportDir: dir(),
    });
    const ran = outcome.result.checks.filter((c) => c.result !== 'skipped');
    expect(ran.map((c) => c.id).sort()).toEqual(['customer.cancel-while-open', 'customer.split-five-sellers']);
    for (const check of ran) expect(check.result).toBe('not-exercised');
    // The first page that does not load costs its time-out once; the next payment is not attempted, naming it.
    const [first, second] = ['customer.split-five-sellers', 'customer.cancel-while-open'].map((id) => ran.find((c) => c.id === id)!);
    expect(first!.reason).toMatch(/^the payment page http:\/\/127\.0\.0\.1:9\/p\/[0-9a-f-]+ did not load within 30 s/);
    expect(second!.reason).toMatch(
      /^not attempted: the payment page did not load \(payment [0-9a-f-]+ of customer\.split-five-sellers on 42161\/USDT\)/,
    );
    expect(children()).toEqual([]);
  }, 120_000);
});
