// The suite's own step of a payment failing is about the suite, never about the page. What the suite does on its
// chains before the wallet signs (blacklist a seller so the payment reverts, stop a chain's mining to hold it
// PROCESSING) can fail: the wallet then refuses the page's request, and once did so as "the suite's wallet refused what
// the page asked", after which the run waited out the 90 s settle time-out and reported every later customer payment
// as not attempted, exit 0 (a repeat run of 2026-12-07: the blacklisting transaction lost its nonce to the simulator).
// Now the wallet keeps the hook's error, the session stops waiting for the page at once with a SuiteStepError, and the
// check ends with that error (exit 2), not with a finding about the page.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { BrowserContext, Page } from 'playwright-core';
import { generatePrivateKey } from 'viem/accounts';
import { describe, expect, it } from 'vitest';
import { PageStepError, SuiteStepError } from './agent-errors.ts';
import { CustomerSession, type SessionOwner } from './customer-session.ts';
import { DEFAULT_PAGE_CONTRACT } from './page-contract.ts';
import { installWallet, type CustomerWallet } from './wallet.ts';

type Binding = (
  source: unknown,
  method: string,
  params: unknown[],
) => Promise<{ result?: unknown; error?: { code: number; message: string } }>;

/** A browser context that keeps the wallet's binding, so the test can call it as the page would. */
function bindingContext(): { context: BrowserContext; call: (method: string, params?: unknown[]) => ReturnType<Binding> } {
  let binding: Binding | undefined;
  const context = {
    async exposeBinding(_name: string, fn: Binding) {
      binding = fn;
    },
    async addInitScript() {},
  } as unknown as BrowserContext;
  return { context, call: (method, params = []) => binding!(null, method, params) };
}

/** A page that never shows an end state (its end-state region has no text). */
function silentPage(): Page {
  return {
    getByRole: () => ({ allInnerTexts: async () => [] }),
    screenshot: async () => Buffer.alloc(0),
  } as unknown as Page;
}

function session(wallet: CustomerWallet): CustomerSession {
  const owner: SessionOwner = {
    options: { contract: DEFAULT_PAGE_CONTRACT, screenshotDir: mkdtempSync(join(tmpdir(), 'suite-step-')) },
    chainName: () => 'Base',
    forget: () => undefined,
  };
  return new CustomerSession(silentPage(), wallet, {} as BrowserContext, owner, () => undefined, 'suite-step');
}

describe("the suite's own step before the wallet signs", () => {
  it('fails: the wallet refuses naming the suite, keeps the error, and the session stops waiting for the page at once', async () => {
    const { context, call } = bindingContext();
    const wallet = await installWallet(context, {
      privateKey: generatePrivateKey(),
      rpcUrls: new Map([[8453, 'http://127.0.0.1:1']]),
      startChainId: 8453,
      hooks: {
        beforeFirstSignature: async () => {
          throw new Error('blacklist: Nonce provided for the transaction is lower than the current nonce of the account.');
        },
      },
    });
    const reply = await call('personal_sign', ['0x1234', wallet.address]);
    expect(reply.error?.message).toMatch(/^the suite's own step before signing failed: blacklist: Nonce provided/);
    expect(wallet.hookError?.message).toMatch(/^blacklist: Nonce provided/);
    expect(wallet.log.at(-1)).toMatchObject({ method: 'personal_sign', outcome: 'refused' });

    const started = Date.now();
    const waited = session(wallet).waitForEnd(60_000);
    await expect(waited).rejects.toBeInstanceOf(SuiteStepError);
    await expect(waited).rejects.toThrow(/the suite's own step before the wallet signed failed: blacklist: Nonce provided/);
    expect(Date.now() - started).toBeLessThan(5_000);
  });

  it('succeeds: nothing is kept, and a page without an end state is still the page step that failed', async () => {
    const { context, call } = bindingContext();
    let ran = 0;
    const wallet = await installWallet(context, {
      privateKey: generatePrivateKey(),
      rpcUrls: new Map([[8453, 'http://127.0.0.1:1']]),
      startChainId: 8453,
      hooks: { beforeFirstSignature: async () => void ran++ },
    });
    expect((await call('personal_sign', ['0x1234', wallet.address])).result).toMatch(/^0x[0-9a-f]{130}$/);
    expect(ran).toBe(1);
    expect(wallet.hookError).toBeUndefined();
    await expect(session(wallet).waitForEnd(300)).rejects.toBeInstanceOf(PageStepError);
  });
});
