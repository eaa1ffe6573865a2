// One customer at one payment page: its own browser context and wallet, and the page contract's steps (connect, pick a
// pair, pay, read the end state) each with its stated time-out; a missing element fails with the query tried and a
// screenshot path.
import { join } from 'node:path';
import type { BrowserContext, FrameLocator, Locator, Page } from 'playwright-core';
import { PageStepError, SuiteStepError } from './agent-errors.ts';
import { describeQuery, nameRegExp, pairName, type PageContract } from './page-contract.ts';
import { STEP_TIMEOUTS } from './step-timeouts.ts';
import type { CustomerWallet } from './wallet.ts';
import { backOff } from '../back-off.ts';

export type EndState = 'successful' | 'failed' | 'expired' | 'cancelled';
const END_STATES: EndState[] = ['successful', 'failed', 'expired', 'cancelled'];

export interface StepRecord {
  step: string;
  ms: number;
}

let screenshotCounter = 0;

/** One customer at one payment page: its own browser context and wallet. */
/** What a session needs of the agent that opened it (the agent is the one implementation; an interface keeps the two files out of a circle). */
export interface SessionOwner {
  readonly options: { contract: PageContract; screenshotDir: string };
  chainName(chainId: number): string;
  forget(session: CustomerSession): void;
}

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
    private readonly agent: SessionOwner,
    private readonly release: () => void,
    readonly label: string,
    embedded = false,
    /** The agent's generation when the session was opened (see the agent's abortOpen). */
    readonly generation = 0,
    /** The check that opened it (its end closes the session). */
    readonly owner = '',
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
      if (error instanceof SuiteStepError) throw error;
      if (this.wallet.hookError) throw new SuiteStepError(this.wallet.hookError);
      const reason = (error as Error).message.split('\n')[0] ?? String(error);
      throw new PageStepError(step, query, await this.screenshot(step), `not done within ${timeoutMs / 1000} s (${reason})`);
    }
  }

  private enabled(locator: Locator, timeoutMs: number): Promise<void> {
    return locator
      .first()
      .waitFor({ state: 'visible', timeout: timeoutMs })
      .then(async () => {
        const deadline = Date.now() + timeoutMs;
        const pause = backOff({ maxMs: 200 });
        while (!(await locator.first().isEnabled())) {
          if (Date.now() > deadline) throw new Error('the element stayed disabled');
          await pause();
        }
      });
  }

  private byRole(query: { role: string; name: string | RegExp }): Locator {
    return this.root.getByRole(query.role as Parameters<Page['getByRole']>[0], {
      name: typeof query.name === 'string' ? nameRegExp(query.name) : query.name,
    });
  }

  /** PAGE-CONNECT-WALLET: press connect; the wallet must be asked for its accounts. */
  async connect(): Promise<void> {
    const query = { role: this.contract.connect.role, name: nameRegExp(this.contract.connect.name) };
    await this.step('connect', describeQuery(query), STEP_TIMEOUTS.connect, async () => {
      const button = this.byRole(query);
      await this.enabled(button, STEP_TIMEOUTS.connect);
      await button.first().click({ timeout: STEP_TIMEOUTS.connect });
      const deadline = Date.now() + STEP_TIMEOUTS.connect;
      const pause = backOff({ maxMs: 200 });
      while (
        !this.wallet.log.some(
          (e) => e.method === 'eth_requestAccounts' || e.method === 'eth_accounts' || e.method === 'wallet_requestPermissions',
        )
      ) {
        if (Date.now() > deadline) throw new Error('the page never asked the wallet for its accounts');
        await pause();
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
      if (this.contract.pair.role === 'radio' || this.contract.pair.role === 'checkbox') await checkAgainIfMissed(locator.first());
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
      const pause = backOff({ maxMs: 250 });
      for (;;) {
        if (this.wallet.hookError) throw new SuiteStepError(this.wallet.hookError);
        const texts = await region.allInnerTexts().catch(() => [] as string[]);
        for (const text of texts) {
          const hit = patterns.find(([, pattern]) => pattern.test(text));
          if (hit) return { state: hit[0], text: text.replace(/\s+/g, ' ').trim() };
        }
        if (Date.now() > deadline)
          throw new Error(`the page showed ${texts.length ? JSON.stringify(texts.join(' / ').slice(0, 200)) : 'no such element'}`);
        await pause();
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

/** How often a pair control is clicked when a click did not take (see checkAgainIfMissed). */
export const PICK_CLICKS = 3;

/**
 * Checks a radio or checkbox, clicking again (up to PICK_CLICKS times, within the pick time-out) when a click did not
 * change its state, as a person does: a page that moves as it redraws (a poll, a quote shown after the first pick)
 * can take the click elsewhere. A page that never lets the control be checked still fails the step.
 */
export async function checkAgainIfMissed(control: Pick<Locator, 'check'>, timeoutMs: number = STEP_TIMEOUTS.pick): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (let click = 1; ; click += 1) {
    try {
      await control.check({ timeout: Math.max(1000, deadline - Date.now()) });
      return;
    } catch (error) {
      const missed = /did not change its state/.test((error as Error).message ?? '');
      if (!missed || click >= PICK_CLICKS || Date.now() >= deadline) throw error;
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
  }
}
