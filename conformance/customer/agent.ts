// The customer agent: pays through an implementation's hosted page in real Chromium with a wallet the suite holds
// (funded on its chains by the suite's faucet). One shared browser for the run, one browser context per payment, at
// most `parallel` payments at a time. Every step has a stated time-out; a missing element fails with the accessible-name
// query tried and a screenshot path; a page that never loads is reported as such (the check is then not exercised,
// never passed). Once a payment could not be made (`block`), every later one is refused at once with the reason, so a
// page that cannot be paid costs one settle time-out, not one per payment; `abortOpen` ends a finished check's
// sessions and queued payments, so they never hold a slot another check waits for. Checks may pay side by side (the
// runner grants each its browser slots): a session belongs to the check that opened it, and a check's end closes only its own.
import { mkdirSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Browser, BrowserContext } from 'playwright-core';
import type { Hex } from 'viem';
import { generatePrivateKey } from 'viem/accounts';
import type { ChainsFile } from '@stablepay/chains/chains-file';
import { CustomerAbortedError, CustomerBlockedError, PageStepError, PageUnavailableError } from './agent-errors.ts';
import { ChainsHold } from './chains-hold.ts';
import { CustomerSession, type EndState, type StepRecord } from './customer-session.ts';
import type { CustomerFaucet } from './faucet.ts';
import type { PageContract } from './page-contract.ts';
import { Slots } from './slots.ts';
import { currentScope, UndeclaredResource } from '../http/request-scope.ts';
import { STEP_TIMEOUTS } from './step-timeouts.ts';
import { installWallet, type CustomerWallet, type WalletHooks } from './wallet.ts';

export { CustomerAbortedError, CustomerBlockedError, PageStepError, PageUnavailableError, SuiteStepError } from './agent-errors.ts';
export { CustomerSession, type EndState, type StepRecord } from './customer-session.ts';
export { STEP_TIMEOUTS } from './step-timeouts.ts';

export interface CustomerAgentOptions {
  contract: PageContract;
  chains: ChainsFile;
  /** Payments in flight at once (browser contexts). */
  parallel: number;
  screenshotDir: string;
  launch: () => Promise<Browser>;
  /** Funds each customer account on the chains its page uses (none: the wallet holds nothing). */
  faucet?: CustomerFaucet;
  /** From the pay click to the end (page and API), ms: --customer-settle-timeout, else STEP_TIMEOUTS.settle. */
  settleTimeoutMs?: number;
  /** Where the wallet requests go, per payment: shared by the agents of one run (one per target instance). */
  walletLogs?: Map<string, CustomerWallet['log']>;
  /** Why payments are refused from now on: shared by the agents of one run, so the first payment that could not be made blocks every instance's. */
  blocks?: { reason: string | null };
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
  private readonly blocks: { reason: string | null };
  /** Moves on at every abortOpen of everything: a session of an older generation was opened before it. */
  private generation = 0;
  private abortReason = '';
  /** Checks that have ended, with why their sessions were closed: a page still opening for one is dropped. */
  private readonly ended = new Map<string, string>();
  /** Each check's own slots (as many as the runner granted it); none outside a check. */
  private readonly ownSlots = new Map<string, Slots>();
  /** Every wallet request of the run, per payment (for the report). */
  readonly walletLogs: Map<string, CustomerWallet['log']>;
  /** This instance's chains held alone by a check that stops one from mining (chains-hold.ts). */
  private readonly hold = new ChainsHold(() => [...this.sessions].map((session) => session.owner));

  /** From the pay click to the end state on the page and in the API (ms). */
  readonly settleTimeoutMs: number;

  constructor(readonly options: CustomerAgentOptions) {
    this.settleTimeoutMs = options.settleTimeoutMs ?? STEP_TIMEOUTS.settle;
    this.walletLogs = options.walletLogs ?? new Map();
    this.blocks = options.blocks ?? { reason: null };
    this.slots = new Slots(Math.max(1, options.parallel));
    this.rpcUrls = new Map(options.chains.chains.map((c) => [c.chainId, c.rpcUrl]));
    mkdirSync(options.screenshotDir, { recursive: true });
  }

  /** From now on every payment is refused with `reason` (the first payment that could not be made names itself). */
  block(reason: string): void {
    this.blocks.reason ??= reason;
  }

  get blocked(): string | null {
    return this.blocks.reason;
  }

  /**
   * Closes the open sessions and drops the queued payments of `owner` (a check has ended: nothing of it may hold a slot),
   * or of every check when no owner is named.
   */
  async abortOpen(reason: string, owner?: string): Promise<void> {
    if (owner === undefined) {
      this.generation++;
      this.abortReason = reason;
    } else this.ended.set(owner, reason);
    this.slots.rejectWaiting(new CustomerAbortedError(reason), owner);
    for (const [holder, slots] of this.ownSlots)
      if (owner === undefined || holder === owner) slots.rejectWaiting(new CustomerAbortedError(reason));
    const closing = [...this.sessions].filter((session) => owner === undefined || session.owner === owner);
    await Promise.all(closing.map((session) => session.close().catch(() => undefined)));
  }

  private slotsOf(owner: string, granted: number | undefined): Slots {
    if (granted === 0) throw new UndeclaredResource(owner, 'used the browser customer', 'resources: { browserSlots: <n> }');
    let slots = this.ownSlots.get(owner);
    if (!slots) this.ownSlots.set(owner, (slots = new Slots(granted ?? Number.MAX_SAFE_INTEGER)));
    return slots;
  }

  forget(session: CustomerSession): void {
    this.sessions.delete(session);
    this.hold.changed();
  }

  /**
   * This instance's chains for the running check alone, while it stops one from mining (chains-hold.ts): waits until no
   * other check has a page open or opening here; returns the release.
   */
  holdChainsAlone(): Promise<() => void> {
    return this.hold.hold(currentScope()?.checkId ?? '');
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
  async open(
    paymentUrl: string,
    label: string,
    input: { chainId?: number; hooks?: WalletHooks; privateKey?: Hex; embed?: boolean } = {},
  ): Promise<CustomerSession> {
    if (this.blocks.reason) throw new CustomerBlockedError(this.blocks.reason);
    const generation = this.generation;
    const scope = currentScope();
    const owner = scope?.checkId ?? '';
    // A check opens at most the browser contexts the runner granted it at once; more of its payments wait for its own
    // slots, never for another check's.
    const own = this.slotsOf(owner, scope?.claims?.browserSlots);
    const opened = await this.hold.beforeOpen(owner);
    try {
      return await this.openPage(paymentUrl, label, input, { generation, owner, own });
    } finally {
      opened();
    }
  }

  private async openPage(
    paymentUrl: string,
    label: string,
    input: { chainId?: number; hooks?: WalletHooks; privateKey?: Hex; embed?: boolean },
    { generation, owner, own }: { generation: number; owner: string; own: Slots },
  ): Promise<CustomerSession> {
    const ownSlot = await own.acquire(owner);
    let slot: () => void;
    try {
      slot = await this.slots.acquire(owner);
    } catch (error) {
      ownSlot();
      throw error;
    }
    const release = () => {
      slot();
      ownSlot();
    };
    // Its check (or every check) may have ended while it waited for a slot.
    try {
      this.ensureCurrent(generation, owner);
    } catch (error) {
      release();
      throw error;
    }
    let context: BrowserContext | undefined;
    let funded: Promise<void> | undefined;
    try {
      if (this.blocks.reason) throw new CustomerBlockedError(this.blocks.reason);
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
      // The wallet is funded while the page opens (its requests wait for it); the page is open once both are done.
      funded = wallet.funded;
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
        this.ensureCurrent(generation, owner);
        throw new PageUnavailableError(paymentUrl, (error as Error).message.split('\n')[0] ?? 'error');
      }
      await funded;
      this.ensureCurrent(generation, owner);
      const session = new CustomerSession(page, wallet, context, this, release, label, input.embed ?? false, generation, owner);
      this.sessions.add(session);
      return session;
    } catch (error) {
      // Its funding ends before the slot is free (a check holding the chains alone waits for the pages opening).
      await Promise.all([context?.close().catch(() => undefined), funded]);
      release();
      throw error;
    }
  }

  /** A page opened for a check that has ended meanwhile is dropped, never reported as the page's fault. */
  ensureCurrent(generation: number, owner = ''): void {
    if (generation !== this.generation) throw new CustomerAbortedError(this.abortReason);
    const ended = this.ended.get(owner);
    if (ended !== undefined) throw new CustomerAbortedError(ended);
  }

  /** Opens the page, connects, picks the pair, pays and follows the page to its end state (then `follow`, page open). */
  async pay(paymentUrl: string, label: string, pair: { chainId: number; token: string }, options: PayOptions = {}): Promise<PayResult> {
    const session = await this.open(paymentUrl, label, {
      chainId: pair.chainId,
      ...(options.embed ? { embed: true } : {}),
      ...(options.hooks ? { hooks: options.hooks } : {}),
      ...(options.privateKey ? { privateKey: options.privateKey } : {}),
    });
    try {
      await session.connect();
      await session.pick(pair.chainId, pair.token);
      const paidAt = Date.now();
      await session.pay();
      let end: PayResult['end'] = null;
      let endError: PageStepError | null = null;
      try {
        end = await session.waitForEnd(this.settleTimeoutMs);
      } catch (error) {
        if (!(error instanceof PageStepError)) throw error;
        endError = error;
      }
      const body = session.root.locator('body');
      // biome-ignore lint/performance/useDomNodeTextContent: a Playwright locator, not a DOM node: innerText is the text a person sees
      const pageText = await body.innerText({ timeout: 5_000 }).catch(() => '');
      const screenshot = end ? await session.screenshot(`end-${end.state}`) : endError!.screenshot;
      const result: PayResult = { label, end, endError, wallet: session.wallet, steps: session.steps, screenshot, pageText, paidAt };
      await options.follow?.(result, session);
      return result;
    } catch (error) {
      // A step cut short because the check ended (its session was closed under it) is no finding about the page.
      this.ensureCurrent(session.generation, session.owner);
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
        res.end(
          `<!doctype html><title>Shop</title><h1>Checkout</h1><iframe id="payment" title="Payment" src="${src}" width="700" height="1400"></iframe>`,
        );
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
