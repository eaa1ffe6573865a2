// Sends a transaction from one of the simulator's own accounts and returns its receipt (automine: at once).
// Transactions of one sender on one chain are serialised so nonces never collide.
import { BaseError, type Address, type Hex, type TransactionReceipt } from 'viem';
import type { ChainPublicClient, ChainWalletClient } from './create-chain-clients.ts';
import { ChainLayerError } from '../errors.ts';

export interface SendTransactionParameters {
  to?: Address;
  data?: Hex;
  value?: bigint;
  gas?: bigint;
  /** Fee per gas (the chains' base fee is 0, so this is the whole price). Default 1 gwei. */
  gasPrice?: bigint;
  /** What this transaction is for, used in error messages. */
  purpose: string;
}

const queues = new WeakMap<object, Map<string, Promise<unknown>>>();

/** Run `task` after every earlier task queued for the same (client, key). */
export function serialize<T>(scope: object, key: string, task: () => Promise<T>): Promise<T> {
  let byKey = queues.get(scope);
  if (!byKey) queues.set(scope, (byKey = new Map()));
  const previous = byKey.get(key) ?? Promise.resolve();
  const run = previous.then(task, task);
  byKey.set(
    key,
    run.catch(() => undefined),
  );
  return run;
}

export async function sendTransaction(
  publicClient: ChainPublicClient,
  wallet: ChainWalletClient,
  params: SendTransactionParameters,
): Promise<TransactionReceipt> {
  return serialize(publicClient, wallet.account.address, async () => {
    let hash: Hex;
    try {
      hash = await wallet.sendTransaction({
        account: wallet.account,
        chain: wallet.chain,
        to: params.to ?? null,
        data: params.data,
        value: params.value,
        gas: params.gas,
        maxFeePerGas: params.gasPrice ?? 1_000_000_000n,
        maxPriorityFeePerGas: params.gasPrice ?? 1_000_000_000n,
      });
    } catch (cause) {
      throw new ChainLayerError(`Could not send the transaction to ${params.purpose} on chain ${wallet.chain.id}.`, {
        cause,
        details: cause instanceof BaseError ? cause.shortMessage : undefined,
      });
    }
    const receipt = await waitForReceipt(publicClient, hash);
    if (receipt.status !== 'success') {
      throw new ChainLayerError(`The transaction to ${params.purpose} reverted on chain ${wallet.chain.id}.`, {
        metaMessages: [`Transaction: ${hash}`],
      });
    }
    return receipt;
  });
}

export async function waitForReceipt(publicClient: ChainPublicClient, hash: Hex): Promise<TransactionReceipt> {
  for (let attempt = 0; attempt < 200; attempt++) {
    try {
      return await publicClient.getTransactionReceipt({ hash });
    } catch {
      await new Promise((r) => setTimeout(r, attempt < 10 ? 5 : 50));
    }
  }
  throw new ChainLayerError(`No receipt for ${hash} on chain ${publicClient.chain.id} after 10 s.`, {
    metaMessages: ['The chain should automine; check that nobody called evm_setAutomine(false) on it.'],
  });
}
