// Two simulators on one database share the chains (`stablepay chains`): both fund wallets from the same operator
// account. Each serialises its own sends, not the other's, so both read the same pending nonce at once and the chain
// refuses one ("nonce too low"); the page's prepare answered 500 and the suite's customer was blocked for the rest of
// a run (bench/replicas-conformance.ts, seed 2831). The refused send is sent again with the count read afresh.
import { parseGwei } from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { attachChainNetwork } from './attach-chain-network.ts';
import { nonceRefused, TransactionDroppedError } from '../clients/nonce-retry.ts';
import { operatorAccount } from '../roles.ts';
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

it('a funding transaction replaced in the pool by another sender of the operator key (same nonce, higher price) is sent again, and funds once', async () => {
  // Two sends of one key at the same instant: Anvil takes both, and the pricier one replaces the other in the pool,
  // which is then never mined (the suite's blacklisting and a prepare's top-up, bench/replicas-conformance.ts seed 2829:
  // the prepare waited 10 s for a receipt and answered 409). The order is made certain by pausing mining.
  const handle = owner.chain(CHAIN);
  const address = privateKeyToAccount(generatePrivateKey()).address;
  const pending = () => handle.publicClient.getTransactionCount({ address: operatorAccount.address, blockTag: 'pending' });
  const before = await pending();
  await handle.rawRequest('evm_setAutomine', [false]);
  try {
    const funding = fundAccount(owner, CHAIN, 'USDC', address, 2_500_000n);
    funding.catch(() => undefined);
    await expect.poll(pending, { timeout: 10_000, interval: 20 }).toBe(before + 1);
    // The other sender: the same nonce, three times the price.
    await handle.operator.sendTransaction({
      account: operatorAccount,
      chain: handle.operator.chain,
      to: operatorAccount.address,
      value: 0n,
      nonce: before,
      maxFeePerGas: parseGwei('3'),
      maxPriorityFeePerGas: parseGwei('3'),
    });
    await handle.rawRequest('evm_setAutomine', [true]);
    await handle.rawRequest('evm_mine', []);
    await funding;
  } finally {
    await handle.rawRequest('evm_setAutomine', [true]);
  }
  expect(await getTokenBalance(owner, CHAIN, 'USDC', address)).toBe(2_500_000n);
}, 120_000);

it('a dropped transaction counts as a refused nonce (sent again), through the causes', () => {
  expect(nonceRefused(new TransactionDroppedError(CHAIN, '0x01'))).toBe(true);
  expect(nonceRefused(new Error('wrapped', { cause: new TransactionDroppedError(CHAIN, '0x01') }))).toBe(true);
});
