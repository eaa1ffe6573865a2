// Sets up the customer agent of a black-box run: the page contract, the shared Chromium (launched on first use, so a
// run that pays nobody starts no browser) and the wallet log written next to the reports at the end.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ChainsFile } from '@stablepay/chains/chains-file';
import type { ConformanceOptions } from '../options.ts';
import { TARGET_DEFAULTS } from '../black-box-options.ts';
import { CustomerAgent, STEP_TIMEOUTS } from './agent.ts';
import { createFaucet, FAUCET_AMOUNTS } from './faucet.ts';
import { loadPageContract } from './page-contract.ts';

export interface CustomerServices {
  agent: CustomerAgent;
  chains: ChainsFile;
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
  const agent = new CustomerAgent({
    contract,
    chains,
    parallel,
    screenshotDir: join(reportDir, 'customer-screenshots'),
    faucet: createFaucet(chains),
    ...(input.customerSettleTimeout !== undefined ? { settleTimeoutMs: input.customerSettleTimeout * 1000 } : {}),
    launch: async () => (await import('./chromium.ts')).launchChromium({ multiProcess: true }),
  });
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
