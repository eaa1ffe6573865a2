// The customer agent: pays through an implementation's hosted page in real Chromium with a wallet the suite holds.
// One shared browser for the run, one browser context per payment, at most `parallel` payments at a time. Every step
// has a stated time-out; a missing element fails with the accessible-name query tried and a screenshot path; a page
// that never loads is reported as such (the check is then not exercised, never passed).
import { mkdirSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import type { Browser, BrowserContext, FrameLocator, Locator, Page } from 'playwright-core';
import type { Hex } from 'viem';
import { generatePrivateKey } from 'viem/accounts';
import type { ChainsFile } from '@stablepay/chains/chains-file';
import { describeQuery, nameRegExp, pairName, type PageContract } from './page-contract.ts';
import { installWallet, type CustomerWallet, type WalletHooks } from './wallet.ts';

/** Time-outs of each step (ms), stated in the report. */
export const STEP_TIMEOUTS = {
  /** The page answers and renders. */
  load: 30_000,
  /** The connect action is there and enabled, and connecting ends. */
  connect: 20_000,
  /** The pair is offered and can be picked. */
  pick: 15_000,
  /** The pay action is there and enabled. */
  pay: 15_000,
  /** From the pay click to an end state shown on the page. */
  settle: 90_000,
  /** A state change made elsewhere (cancel, expiry) shows on an open page. */
  follow: 30_000,
} as const;

export type EndState = 'successful' | 'failed' | 'expired' | 'cancelled';
const END_STATES: EndState[] = ['successful', 'failed', 'expired', 'cancelled'];

/** A step the page did not let the agent take. */
export class PageStepError extends Error {
  constructor(
    readonly step: string,
    readonly query: string,
    readonly screenshot: string | null,
    detail: string,
  ) {
    super(`${step}: ${detail}; query tried: ${query}; screenshot: ${screenshot ?? 'none (the page was gone)'}`);
    this.name = 'PageStepError';
  }
}

/** The payment page never loaded: nothing about the page can be judged. */
export class PageUnavailableError extends Error {
  constructor(readonly url: string, cause: string) {
    super(url === '(every page)' ? `no browser for the customer: ${cause}` : `the payment page ${url} did not load within ${STEP_TIMEOUTS.load / 1000} s (${cause})`);
    this.name = 'PageUnavailableError';
  }
}

export interface CustomerAgentOptions {
  contract: PageContract;
  chains: ChainsFile;
  /** Payments in flight at once (browser contexts). */
  parallel: number;
  screenshotDir: string;
  launch: () => Promise<Browser>;
}

export interface StepRecord {
  step: string;
  ms: number;
}

/** Runs at most `limit` tasks at once. */
class Slots {
  private active = 0;
  private readonly waiting: (() => void)[] = [];
  constructor(private readonly limit: number) {}
  async acquire(): Promise<() => void> {
    if (this.active >= this.limit) await new Promise<void>((resolve) => this.waiting.push(resolve));
    this.active++;
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.active--;
      this.waiting.shift()?.();
    };
  }
}

let screenshotCounter = 0;

/** One customer at one payment page: its own browser context and wallet. */
export class CustomerSession {
  readonly steps: StepRecord[] = [];

  /** Where the payment page's elements are: the page itself, or the iframe it is embedded in. */
  readonly root: Page | FrameLocator;

  constructor(
    readonly page: Page,
    readonly wallet: CustomerWallet,
    private readonly context: BrowserContext,
    private readonly agent: CustomerAgent,
    private readonly release: () => void,
    readonly label: string,
    embedded = false,
  ) {
    this.root = embedded ? page.frameLocator('iframe#payment') : page;
  }

  private get contract(): PageContract {
    return this.agent.options.contract;
  }

  async screenshot(name: string): Promise<string | null> {
    const path = join(this.agent.options.screenshotDir, `${this.label}-${name}-${++screenshotCounter}.png`);
    try {
      await this.page.screenshot({ path, fullPage: true, timeout: 5_000 });
      return path;
    } catch {
      return null;
    }
  }

  private async step<T>(step: string, query: string, timeoutMs: number, run: () => Promise<T>): Promise<T> {
    const started = Date.now();
    try {
      const value = await run();
      this.steps.push({ step, ms: Date.now() - started });
      return value;
    } catch (error) {
      const reason = (error as Error).message.split('\n')[0] ?? String(error);
      throw new PageStepError(step, query, await this.screenshot(step), `not done within ${timeoutMs / 1000} s (${reason})`);
    }
  }

  private enabled(locator: Locator, timeoutMs: number): Promise<void> {
    return locator.first().waitFor({ state: 'visible', timeout: timeoutMs }).then(async () => {
      const deadline = Date.now() + timeoutMs;
      while (!(await locator.first().isEnabled())) {
        if (Date.now() > deadline) throw new Error('the element stayed disabled');
        await new Promise((r) => setTimeout(r, 100));
      }
    });
  }

  private byRole(query: { role: string; name: string | RegExp }): Locator {
    return this.root.getByRole(query.role as Parameters<Page['getByRole']>[0], { name: typeof query.name === 'string' ? nameRegExp(query.name) : query.name });
  }

  /** PAGE-CONNECT-WALLET: press connect; the wallet must be asked for its accounts. */
  async connect(): Promise<void> {
    const query = { role: this.contract.connect.role, name: nameRegExp(this.contract.connect.name) };
    await this.step('connect', describeQuery(query), STEP_TIMEOUTS.connect, async () => {
      const button = this.byRole(query);
      await this.enabled(button, STEP_TIMEOUTS.connect);
      await button.first().click({ timeout: STEP_TIMEOUTS.connect });
      const deadline = Date.now() + STEP_TIMEOUTS.connect;
      while (!this.wallet.log.some((e) => e.method === 'eth_requestAccounts' || e.method === 'eth_accounts')) {
        if (Date.now() > deadline) throw new Error('the page never asked the wallet for its accounts');
        await new Promise((r) => setTimeout(r, 100));
      }
    });
  }

  /** The pair's control (PAGE-PAIR-CHOICE). */
  pairControl(chainId: number, token: string): { locator: Locator; query: string } {
    const chainName = this.agent.chainName(chainId);
    const query = { role: this.contract.pair.role, name: pairName(this.contract, chainName, token) };
    return { locator: this.byRole(query), query: describeQuery(query) };
  }

  payControl(): { locator: Locator; query: string } {
    const query = { role: this.contract.pay.role, name: nameRegExp(this.contract.pay.name) };
    return { locator: this.byRole(query), query: describeQuery(query) };
  }

  async pick(chainId: number, token: string): Promise<void> {
    const { locator, query } = this.pairControl(chainId, token);
    await this.step('pick', query, STEP_TIMEOUTS.pick, async () => {
      await this.enabled(locator, STEP_TIMEOUTS.pick);
      if (this.contract.pair.role === 'radio' || this.contract.pair.role === 'checkbox') await locator.first().check({ timeout: STEP_TIMEOUTS.pick });
      else await locator.first().click({ timeout: STEP_TIMEOUTS.pick });
    });
  }

  async pay(): Promise<void> {
    const { locator, query } = this.payControl();
    await this.step('pay', query, STEP_TIMEOUTS.pay, async () => {
      await this.enabled(locator, STEP_TIMEOUTS.pay);
      await locator.first().click({ timeout: STEP_TIMEOUTS.pay });
    });
  }

  /** The end state the page shows (PAGE-FINAL-STATE), waiting up to `timeoutMs`. */
  async waitForEnd(timeoutMs: number = STEP_TIMEOUTS.settle): Promise<{ state: EndState; text: string }> {
    const { state } = this.contract;
    const region = this.root.getByRole(state.role, state.name ? { name: nameRegExp(state.name) } : {});
    const patterns = END_STATES.map((s) => [s, nameRegExp(state[s])] as const);
    const query = `${describeQuery({ role: state.role, name: state.name || '(any)' })} with text ${patterns.map(([, p]) => String(p)).join(' | ')}`;
    return this.step('end-state', query, timeoutMs, async () => {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const texts = await region.allInnerTexts().catch(() => [] as string[]);
        for (const text of texts) {
          const hit = patterns.find(([, pattern]) => pattern.test(text));
          if (hit) return { state: hit[0], text: text.replace(/\s+/g, ' ').trim() };
        }
        if (Date.now() > deadline) throw new Error(`the page showed ${texts.length ? JSON.stringify(texts.join(' / ').slice(0, 200)) : 'no such element'}`);
        await new Promise((r) => setTimeout(r, 250));
      }
    });
  }

  /** Whether the page lets the customer pay now: the pay action exists and is enabled (a refusing page disables or hides it). */
  async canPay(chainId: number, token: string): Promise<boolean> {
    const pair = this.pairControl(chainId, token).locator.first();
    const pay = this.payControl().locator.first();
    const pairUsable = (await pair.count()) > 0 && (await pair.isEnabled().catch(() => false));
    const payUsable = (await pay.count()) > 0 && (await pay.isEnabled().catch(() => false));
    return pairUsable && payUsable;
  }

  async close(): Promise<void> {
    try {
      await this.context.close();
    } finally {
      this.release();
    }
  }
}

export interface PayResult {
  end: { state: EndState; text: string };
  wallet: CustomerWallet;
  steps: StepRecord[];
  screenshot: string | null;
  /** Whether the transaction hash the API reports is shown on the page (PAGE-TX-HASH-SHOWN), when one is given. */
  pageText: string;
}

export class CustomerAgent {
  private browser: Promise<Browser> | undefined;
  private readonly slots: Slots;
  private readonly rpcUrls: Map<number, string>;
  /** Every wallet request of the run, per payment (for the report). */
  readonly walletLogs = new Map<string, CustomerWallet['log']>();

  constructor(readonly options: CustomerAgentOptions) {
    this.slots = new Slots(Math.max(1, options.parallel));
    this.rpcUrls = new Map(options.chains.chains.map((c) => [c.chainId, c.rpcUrl]));
    mkdirSync(options.screenshotDir, { recursive: true });
  }

  chainName(chainId: number): string {
    return this.options.chains.chains.find((c) => c.chainId === chainId)?.name ?? String(chainId);
  }

  private launch(): Promise<Browser> {
    this.browser ??= this.options.launch().catch((error: unknown) => {
      throw new PageUnavailableError('(every page)', `Chromium could not be started: ${(error as Error).message.split('\n')[0]}`);
    });
    return this.browser;
  }

  /** Opens the payment page in a fresh context with a fresh wallet. Waits for a free slot first. */
  /** `embed`: the page is loaded inside an iframe of another origin (a merchant's site), as the spec allows. */
  async open(paymentUrl: string, label: string, input: { chainId?: number; hooks?: WalletHooks; privateKey?: Hex; embed?: boolean } = {}): Promise<CustomerSession> {
    const release = await this.slots.acquire();
    let context: BrowserContext | undefined;
    try {
      const browser = await this.launch();
      context = await browser.newContext({ viewport: { width: 720, height: 1000 } });
      context.setDefaultTimeout(STEP_TIMEOUTS.load);
      const wallet = await installWallet(context, { privateKey: input.privateKey ?? generatePrivateKey(), rpcUrls: this.rpcUrls, startChainId: input.chainId ?? this.options.chains.chains[0]!.chainId, ...(input.hooks ? { hooks: input.hooks } : {}) });
      this.walletLogs.set(label, wallet.log);
      const page = await context.newPage();
      try {
        if (input.embed) {
          // A merchant's page on an origin of its own (the suite's small shop server), framing the payment link.
          const shop = `${await this.shopOrigin()}/checkout?pay=${encodeURIComponent(paymentUrl)}`;
          const loaded = page.waitForResponse((r) => r.url() === paymentUrl, { timeout: STEP_TIMEOUTS.load });
          await page.goto(shop, { waitUntil: 'load', timeout: STEP_TIMEOUTS.load });
          const response = await loaded;
          if (response.status() >= 400) throw new Error(`HTTP ${response.status()}`);
          await page.frameLocator('iframe#payment').locator('body').waitFor({ timeout: STEP_TIMEOUTS.load });
        } else {
          const response = await page.goto(paymentUrl, { waitUntil: 'load', timeout: STEP_TIMEOUTS.load });
          if (!response || response.status() >= 400) throw new Error(response ? `HTTP ${response.status()}` : 'no response');
        }
      } catch (error) {
        throw new PageUnavailableError(paymentUrl, (error as Error).message.split('\n')[0] ?? 'error');
      }
      return new CustomerSession(page, wallet, context, this, release, label, input.embed ?? false);
    } catch (error) {
      await context?.close().catch(() => undefined);
      release();
      throw error;
    }
  }

  /** Opens the page, connects, picks the pair, pays and follows the page to its end state. */
  async pay(paymentUrl: string, label: string, pair: { chainId: number; token: string }, hooks?: WalletHooks, embed = false): Promise<PayResult> {
    const session = await this.open(paymentUrl, label, { chainId: pair.chainId, embed, ...(hooks ? { hooks } : {}) });
    try {
      await session.connect();
      await session.pick(pair.chainId, pair.token);
      await session.pay();
      const end = await session.waitForEnd();
      // biome-ignore lint/performance/useDomNodeTextContent: a Playwright locator, not a DOM node: innerText is the text a person sees
      const pageText = await session.root.locator('body').innerText({ timeout: 5_000 }).catch(() => '');
      const screenshot = await session.screenshot(`end-${end.state}`);
      return { end, wallet: session.wallet, steps: session.steps, screenshot, pageText };
    } finally {
      await session.close();
    }
  }

  private shop: Promise<{ origin: string; server: Server }> | undefined;

  /** A merchant's checkout page that frames `?pay=<paymentUrl>`, served on 127.0.0.1 at a port of its own. */
  private async shopOrigin(): Promise<string> {
    this.shop ??= new Promise((resolve, reject) => {
      const server = createServer((req, res) => {
        const pay = new URL(req.url ?? '/', 'http://shop').searchParams.get('pay') ?? '';
        const src = /^https?:\/\//.test(pay) ? pay.replace(/[&"<>]/g, (c) => `&#${c.charCodeAt(0)};`) : 'about:blank';
        res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
        res.end(`<!doctype html><title>Shop</title><h1>Checkout</h1><iframe id="payment" title="Payment" src="${src}" width="700" height="1400"></iframe>`);
      });
      server.once('error', reject);
      server.listen(0, '127.0.0.1', () => resolve({ origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server }));
    });
    return (await this.shop).origin;
  }

  async close(): Promise<void> {
    const shop = this.shop;
    this.shop = undefined;
    if (shop) await shop.then(({ server }) => new Promise((resolve) => server.close(resolve))).catch(() => undefined);
    const browser = this.browser;
    this.browser = undefined;
    if (browser) await (await browser.catch(() => undefined))?.close().catch(() => undefined);
  }
}
