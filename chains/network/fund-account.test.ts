// Two simulators on one database share the chains (`stablepay chains`): both fund wallets from the same operator
// account. Each serialises its own sends, not the other's, so both read the same pending nonce at once and the chain
// refuses one ("nonce too low"); the page's prepare answered 500 and the suite's customer was blocked for the rest of
// a run (bench/replicas-conformance.ts, seed 2831). The refused send is sent again with the count read afresh.
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { attachChainNetwork } from './attach-chain-network.ts';
import { nonceRefused } from '../clients/nonce-retry.ts';
import { fundAccount, getTokenBalance } from './fund-account.ts';
import { startChainNetwork, type ChainNetwork } from './start-chain-network.ts';

const CHAIN = 8453;
let owner: ChainNetwork;
let other: ChainNetwork;

beforeAll(async () => {
  owner = await startChainNetwork({ chains: [CHAIN] });
  // A second process's view of the same chain: its own clients, its own send queue.
  other = await attachChainNetwork({ rpcUrls: new Map([[CHAIN, owner.chain(CHAIN).rpcUrl]]) });
}, 120_000);
afterAll(async () => {
  await owner?.stop();
});

it('funding from the same operator through two networks at once: every wallet funded, once', async () => {
  const wallets = Array.from({ length: 12 }, () => privateKeyToAccount(generatePrivateKey()).address);
  const funded = await Promise.allSettled(
    wallets.map((address, i) => fundAccount(i % 2 === 0 ? owner : other, CHAIN, 'USDC', address, 1_000_000n)),
  );
  expect(funded.filter((result) => result.status === 'rejected').map((result) => String((result as PromiseRejectedResult).reason))).toEqual(
    [],
  );
  for (const address of wallets) expect(await getTokenBalance(owner, CHAIN, 'USDC', address)).toBe(1_000_000n);
}, 120_000);

it('tells a refused nonce from other failures, through the causes', () => {
  const refused = new Error('Could not send the transaction', {
    cause: new Error('Nonce provided for the transaction is lower than the current nonce of the account. nonce too low'),
  });
  expect(nonceRefused(refused)).toBe(true);
  expect(nonceRefused(Object.assign(new Error('x'), { name: 'NonceTooLowError' }))).toBe(true);
  expect(nonceRefused(new Error('execution reverted'))).toBe(false);
  expect(nonceRefused('nonce too low')).toBe(false);
});
