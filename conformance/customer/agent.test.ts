// The agent's bookkeeping, on a stand-in browser (no Chromium): a check that ends takes its open pages and its queued
// payments with it, so they never hold a slot the next check waits for (issue 23: two checks ended through the 180 s
// check time-out as "unexpected error" behind an earlier check's payments); and once blocked, the agent refuses every
// payment at once with the reason.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { CustomerAbortedError, CustomerAgent, CustomerBlockedError } from './agent.ts';
import { DEFAULT_PAGE_CONTRACT } from './page-contract.ts';
import type { ChainsFile } from '@stablepay/chains/chains-file';

function fakeBrowser(closed: string[], loading: () => Promise<void>): Browser {
  let contexts = 0;
  return {
    async newContext() {
      const name = `context-${++contexts}`;
      return {
        setDefaultTimeout() {},
        async exposeBinding() {},
        async addInitScript() {},
        async newPage() {
          return {
            goto: async () => {
              await loading();
              return { status: () => 200 };
            },
            frameLocator: () => ({}),
          };
        },
        async close() {
          closed.push(name);
        },
      };
    },
    async close() {},
  } as unknown as Browser;
}

const chains = { chains: [{ chainId: 8453, name: 'Base', rpcUrl: 'http://127.0.0.1:1', tokens: {} }] } as unknown as ChainsFile;

function agent(closed: string[], loading: () => Promise<void> = async () => undefined): CustomerAgent {
  return new CustomerAgent({
    contract: DEFAULT_PAGE_CONTRACT,
    chains,
    parallel: 1,
    screenshotDir: mkdtempSync(join(tmpdir(), 'agent-test-')),
    launch: async () => fakeBrowser(closed, loading),
  });
}

describe('customer agent', () => {
  it("closes an ended check's open pages and drops its queued payments; the next check gets the slot", async () => {
    const closed: string[] = [];
    const customer = agent(closed);
    await customer.open('http://shop.test/p/1', 'first');
    const queued = customer.open('http://shop.test/p/2', 'queued');
    await customer.abortOpen('not attempted: customer.pay-each-pair ended');
    await expect(queued).rejects.toThrow(CustomerAbortedError);
    expect(closed).toEqual(['context-1']);
    const next = await customer.open('http://shop.test/p/3', 'next check');
    await next.close();
    expect(closed).toEqual(['context-1', 'context-2']);
  });

  it('drops a page that was still loading when its check ended: it is no finding about the page, and frees its slot', async () => {
    let finishLoading!: () => void;
    const slow = new Promise<void>((resolve) => (finishLoading = resolve));
    const closed: string[] = [];
    const customer = agent(closed, () => slow);
    const opening = customer.open('http://shop.test/p/1', 'slow');
    await new Promise((r) => setTimeout(r, 20));
    await customer.abortOpen('not attempted: customer.pay-each-pair ended');
    finishLoading();
    await expect(opening).rejects.toThrow(new CustomerAbortedError('not attempted: customer.pay-each-pair ended'));
    expect(closed).toEqual(['context-1']);
    await (await customer.open('http://shop.test/p/2', 'next check')).close();
  });

  it('once blocked, refuses every payment at once with the first reason, queued ones included', async () => {
    const customer = agent([]);
    const holding = await customer.open('http://shop.test/p/1', 'holding');
    const queued = customer.open('http://shop.test/p/2', 'queued');
    customer.block('payment 1 of customer.settles did not settle');
    customer.block('a later reason');
    await holding.close();
    await expect(queued).rejects.toThrow(new CustomerBlockedError('payment 1 of customer.settles did not settle'));
    await expect(customer.open('http://shop.test/p/3', 'later')).rejects.toThrow(
      'not attempted: payment 1 of customer.settles did not settle',
    );
  });
});
