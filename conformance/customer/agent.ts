// The customer agent: pays through an implementation's hosted page in real Chromium with a wallet the suite holds
// (funded on its chains by the suite's faucet). One shared browser for the run, one browser context per payment, at
// most `parallel` payments at a time. Every step has a stated time-out; a missing element fails with the accessible-name
// query tried and a screenshot path; a page that never loads is reported as such (the check is then not exercised,
// never passed). Once a payment could not be made (`block`), every later one is refused at once with the reason, so a
// page that cannot be paid costs one settle time-out, not one per payment; `abortOpen` ends a finished check's
// sessions and queued payments, so they never hold a slot another check waits for.
import { mkdirSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import type { Browser, BrowserContext, FrameLocator, Locator, Page } from 'playwright-core';
import type { Hex } from 'viem';
import { generatePrivateKey } from 'viem/accounts';
import type { ChainsFile } from '../../simulator/chains/chains-file.ts';
import type { CustomerFaucet } from './faucet.ts';
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
  /** From the pay click to an end state shown on the page, and to SUCCESSFUL (or the expected end) in GET /v1/payments/{id}. */
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

/** An earlier payment of the run could not be made: this one is not attempted (the reason names it). */
export class CustomerBlockedError extends Error {
  constructor(readonly blockedBy: string) {
    super(`not attempted: ${blockedBy}`);
    this.name = 'CustomerBlockedError';
  }
}

/** The check that wanted this payment has ended (its sessions and queued payments are dropped). */
export class CustomerAbortedError extends Error {
  constructor(reason: string) {
    super(reason);
    this.name = 'CustomerAbortedError';
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
  /** Funds each customer account on the chains its page uses (none: the wallet holds nothing). */
  faucet?: CustomerFaucet;
}

export interface StepRecord {
  step: string;
  ms: number;
}

/** Runs at most `limit` tasks at once; `rejectWaiting` drops the queued ones. */
class Slots {
  private active = 0;
  private readonly waiting: { resolve: () => void; reject: (error: Error) => void }[] = [];
  constructor(private readonly limit: number) {}
  async acquire(): Promise<() => void> {
    if (this.active >= this.limit) await new Promise<void>((resolve, reject) => this.waiting.push({ resolve, reject }));
    this.active++;
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.active--;
      this.waiting.shift()?.resolve();
    };
  }
  rejectWaiting(error: Error): void {
    for (const waiter of this.waiting.splice(0)) waiter.reject(error);
  }
}

let screenshotCounter = 0;

/** One customer at one payment page: its own browser context and wallet. */
export class CustomerSession {
  readonly steps: StepRecord[] = [];
  /** True once closed (by its payment, or because its check ended). */
  closed = false;

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
    /** The agent's generation when the session was opened (see CustomerAgent.abortOpen). */
    readonly generation = 0,
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
      while (!this.wallet.log.some((e) => e.method === 'eth_requestAccounts' || e.method === 'eth_accounts' || e.method === 'wallet_requestPermissions')) {
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
    this.closed = true;
    try {
      await this.context.close();
    } finally {
      this.release();
      this.agent.forget(this);
    }
  }
}

export interface PayResult {
  label: string;
  /** The end state the page showed; null when it showed none within the settle time-out (see endError). */
  end: { state: EndState; text: string } | null;
  endError: PageStepError | null;
  wallet: CustomerWallet;
  steps: StepRecord[];
  /** The page at its end state (or when the wait for one ran out). */
  screenshot: string | null;
  /** The page's text at the end (PAGE-TX-HASH-SHOWN is judged on it). */
  pageText: string;
  /** When the pay action was pressed (ms since the epoch): the settle time-out runs from here. */
  paidAt: number;
}

export interface PayOptions {
  hooks?: WalletHooks;
  /** The page is loaded inside an iframe of another origin (a merchant's site), as the spec allows. */
  embed?: boolean;
  privateKey?: Hex;
  /** Runs after the page's end (or the wait for it), while the page is still open (e.g. to follow the API and take a last screenshot). */
  follow?: (result: PayResult, session: CustomerSession) => Promise<void>;
}

export class CustomerAgent {
  private browser: Promise<Browser> | undefined;
  private readonly slots: Slots;
  private readonly rpcUrls: Map<number, string>;
  private readonly sessions = new Set<CustomerSession>();
  /** Why payments are no longer attempted (the first one that could not be made), or null. */
  private blockedBy: string | null = null;
  /** Moves on at every abortOpen: a session of an older generation belongs to a check that has ended. */
  private generation = 0;
  private abortReason = '';
  /** Every wallet request of the run, per payment (for the report). */
  readonly walletLogs = new Map<string, CustomerWallet['log']>();

  constructor(readonly options: CustomerAgentOptions) {
    this.slots = new Slots(Math.max(1, options.parallel));
    this.rpcUrls = new Map(options.chains.chains.map((c) => [c.chainId, c.rpcUrl]));
    mkdirSync(options.screenshotDir, { recursive: true });
  }

  /** From now on every payment is refused with `reason` (the first payment that could not be made names itself). */
  block(reason: string): void {
    this.blockedBy ??= reason;
  }

  get blocked(): string | null {
    return this.blockedBy;
  }

  /** Closes every open session and drops every queued one (a check has ended; nothing of it may hold a slot). */
  async abortOpen(reason: string): Promise<void> {
    this.generation++;
    this.abortReason = reason;
    this.slots.rejectWaiting(new CustomerAbortedError(reason));
    await Promise.all([...this.sessions].map((session) => session.close().catch(() => undefined)));
  }

  forget(session: CustomerSession): void {
    this.sessions.delete(session);
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

  /**
   * Opens the payment page in a fresh context with a fresh (funded) wallet. Waits for a free slot first; refused at once
   * when the agent is blocked. `embed`: the page is loaded inside an iframe of another origin (a merchant's site).
   */
  async open(paymentUrl: string, label: string, input: { chainId?: number; hooks?: WalletHooks; privateKey?: Hex; embed?: boolean } = {}): Promise<CustomerSession> {
    if (this.blockedBy) throw new CustomerBlockedError(this.blockedBy);
    const generation = this.generation;
    const release = await this.slots.acquire();
    let context: BrowserContext | undefined;
    try {
      if (this.blockedBy) throw new CustomerBlockedError(this.blockedBy);
      const browser = await this.launch();
      context = await browser.newContext({ viewport: { width: 720, height: 1000 } });
      context.setDefaultTimeout(STEP_TIMEOUTS.load);
      const { faucet } = this.options;
      const wallet = await installWallet(context, {
        privateKey: input.privateKey ?? generatePrivateKey(),
        rpcUrls: this.rpcUrls,
        startChainId: input.chainId ?? this.options.chains.chains[0]!.chainId,
        ...(input.hooks ? { hooks: input.hooks } : {}),
        ...(faucet ? { fund: (chainId: number, address: Hex) => faucet.fund(chainId, address) } : {}),
      });
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
        this.ensureCurrent(generation);
        throw new PageUnavailableError(paymentUrl, (error as Error).message.split('\n')[0] ?? 'error');
      }
      this.ensureCurrent(generation);
      const session = new CustomerSession(page, wallet, context, this, release, label, input.embed ?? false, generation);
      this.sessions.add(session);
      return session;
    } catch (error) {
      await context?.close().catch(() => undefined);
      release();
      throw error;
    }
  }

  /** A page opened for a check that has ended meanwhile is dropped, never reported as the page's fault. */
  ensureCurrent(generation: number): void {
    if (generation !== this.generation) throw new CustomerAbortedError(this.abortReason);
  }

  /** Opens the page, connects, picks the pair, pays and follows the page to its end state (then `follow`, page open). */
  async pay(paymentUrl: string, label: string, pair: { chainId: number; token: string }, options: PayOptions = {}): Promise<PayResult> {
    const session = await this.open(paymentUrl, label, { chainId: pair.chainId, ...(options.embed ? { embed: true } : {}), ...(options.hooks ? { hooks: options.hooks } : {}), ...(options.privateKey ? { privateKey: options.privateKey } : {}) });
    try {
      await session.connect();
      await session.pick(pair.chainId, pair.token);
      const paidAt = Date.now();
      await session.pay();
      let end: PayResult['end'] = null;
      let endError: PageStepError | null = null;
      try {
        end = await session.waitForEnd();
      } catch (error) {
        if (!(error instanceof PageStepError)) throw error;
        endError = error;
      }
      const pageText = await session.root.locator('body').innerText({ timeout: 5_000 }).catch(() => '');
      const screenshot = end ? await session.screenshot(`end-${end.state}`) : endError!.screenshot;
      const result: PayResult = { label, end, endError, wallet: session.wallet, steps: session.steps, screenshot, pageText, paidAt };
      await options.follow?.(result, session);
      return result;
    } catch (error) {
      // A step cut short because the check ended (its session was closed under it) is no finding about the page.
      this.ensureCurrent(session.generation);
      throw error;
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
