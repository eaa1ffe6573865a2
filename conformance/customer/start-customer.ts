// Sets up the customer agent of a black-box run: the page contract, the shared Chromium (launched on first use, so a
// run that pays nobody starts no browser) and the wallet log written next to the reports at the end.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ChainsFile } from '@stablepay/chains/chains-file';
import type { ConformanceOptions } from '../options.ts';
import { TARGET_DEFAULTS } from '../black-box-options.ts';
import { CustomerAgent, STEP_TIMEOUTS, type CustomerAgentOptions } from './agent.ts';
import { createFaucet, FAUCET_AMOUNTS } from './faucet.ts';
import { loadPageContract } from './page-contract.ts';

export interface CustomerServices {
  agent: CustomerAgent;
  chains: ChainsFile;
  /**
   * An agent paying on another target instance's chains (black-box lanes), in the same Chromium, logging into the
   * same wallet log; the runner counts every agent's browser contexts against --customer-parallel.
   */
  onChains(chains: ChainsFile): CustomerAgent;
  /** Closes every agent and the one Chromium. */
  close(): Promise<void>;
  /** Writes the wallet log; returns the notes for the report. */
  finish(): Promise<string[]>;
}

export const CUSTOMER_WALLET_LOG = 'customer-wallet.json';

export function startCustomer(input: ConformanceOptions, reportDir: string, chains: ChainsFile, notes: string[]): CustomerServices | null {
  if (input.customer === false) {
    notes.push('customer: off (--no-customer): checks that pay through the hosted page are not exercised');
    return null;
  }
  if (process.env.STABLEPAY_SKIP_BROWSER === '1') {
    notes.push('customer: STABLEPAY_SKIP_BROWSER=1: checks that pay through the hosted page are not exercised');
    return null;
  }
  const contract = loadPageContract(input.pageContract);
  const parallel = input.customerParallel ?? TARGET_DEFAULTS.customerParallel;
  let browser: ReturnType<CustomerAgentOptions['launch']> | undefined;
  const walletLogs: NonNullable<CustomerAgentOptions['walletLogs']> = new Map();
  const blocks: NonNullable<CustomerAgentOptions['blocks']> = { reason: null };
  const agents: CustomerAgent[] = [];
  const agentOn = (on: ChainsFile): CustomerAgent => {
    const made = new CustomerAgent({
      contract,
      chains: on,
      parallel,
      screenshotDir: join(reportDir, 'customer-screenshots'),
      faucet: createFaucet(on),
      ...(input.customerSettleTimeout !== undefined ? { settleTimeoutMs: input.customerSettleTimeout * 1000 } : {}),
      launch: () => (browser ??= import('./chromium.ts').then(({ launchChromium }) => launchChromium({ multiProcess: true }))),
      walletLogs,
      blocks,
    });
    agents.push(made);
    return made;
  };
  const agent = agentOn(chains);
  const timeouts = Object.entries({ ...STEP_TIMEOUTS, settle: agent.settleTimeoutMs })
    .map(([step, ms]) => `${step} ${ms / 1000} s`)
    .join(', ');
  notes.push(
    `customer: pays through the hosted page in Chromium with an injected EIP-1193 wallet, ${parallel} payment(s) at a time${input.pageContract ? `, page contract from ${input.pageContract}` : ''}; step time-outs: ${timeouts}`,
    `customer: each wallet holds ${FAUCET_AMOUNTS.nativeWei / 10n ** 18n} of the native coin and ${FAUCET_AMOUNTS.tokens} of each token on the chains its page uses; it sends transactions (EIP-1559 or legacy, with the page's fees or the chain's), signs messages and typed data (EIP-2612 permits) and user operations`,
  );
  return {
    agent,
    chains,
    onChains: agentOn,
    async close() {
      // Each closes its own sessions and helpers; the shared browser is closed by the first and ignored by the rest.
      await Promise.all(agents.map((each) => each.close()));
    },
    async finish() {
      const logs = Object.fromEntries(agent.walletLogs);
      const blocked = agent.blocked
        ? [`customer: after the first payment that could not be made, no other was attempted: ${agent.blocked}`]
        : [];
      if (agent.walletLogs.size === 0) return [...blocked, 'customer: no payment went through the hosted page in this run'];
      mkdirSync(reportDir, { recursive: true });
      const path = join(reportDir, CUSTOMER_WALLET_LOG);
      writeFileSync(path, `${JSON.stringify(logs, null, 2)}\n`);
      const requests = [...agent.walletLogs.values()].reduce((n, log) => n + log.length, 0);
      return [...blocked, `customer: ${agent.walletLogs.size} page session(s), ${requests} wallet requests, logged in ${path}`];
    },
  };
}
