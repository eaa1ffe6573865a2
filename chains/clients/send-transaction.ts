// Sends a transaction from one of the simulator's own accounts and returns its receipt (automine: at once).
// Transactions of one sender on one chain are serialised so nonces never collide.
import { BaseError, type Address, type Hex, type TransactionReceipt } from 'viem';
import type { ChainPublicClient, ChainWalletClient } from './create-chain-clients.ts';
import { ChainLayerError } from '../errors.ts';
import { TransactionDroppedError } from './nonce-retry.ts';

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

/** What waiting for a receipt reads of a chain (a chain's public client, or the suite's bare client with viem's actions). */
export interface ReceiptReader {
  readonly chain?: { readonly id: number } | undefined;
  getTransactionReceipt(args: { hash: Hex }): Promise<TransactionReceipt>;
  getTransaction(args: { hash: Hex }): Promise<unknown>;
}

/**
 * The receipt of a sent transaction. A transaction the chain accepted can still be dropped before it is mined: another
 * sender from the same account (the suite's blacklisting, a second simulator on the chains) sent one with the same
 * nonce at the same instant and a higher price, which replaced it in the pool (Anvil accepts both sends; one is never
 * mined). Then the chain knows the hash no more: TransactionDroppedError, which a send retried on a refused nonce sends
 * again (it was never applied). Polled up to `timeoutMs` (automine: at once).
 */
export async function waitForReceipt(client: ReceiptReader, hash: Hex, options: { timeoutMs?: number } = {}): Promise<TransactionReceipt> {
  const timeoutMs = options.timeoutMs ?? 10_000;
  const chainId = client.chain?.id ?? 0;
  // Counted in polls, not read off the clock: the simulator may run under libfaketime, whose jumps move Date.now().
  const polls = Math.max(1, Math.ceil(timeoutMs / 50));
  for (let attempt = 0; attempt < polls; attempt++) {
    try {
      return await client.getTransactionReceipt({ hash });
    } catch {
      if (attempt % 4 === 3 && (await isDropped(client, hash))) throw new TransactionDroppedError(chainId, hash);
      await new Promise((r) => setTimeout(r, attempt < 10 ? 5 : 50));
    }
  }
  throw new ChainLayerError(`No receipt for ${hash} on chain ${chainId} after ${timeoutMs / 1000} s.`, {
    metaMessages: ['The chain should automine; check that nobody called evm_setAutomine(false) on it.'],
  });
}

/** Whether the chain knows the transaction neither as mined nor as pending (and has no receipt for it either). */
async function isDropped(client: ReceiptReader, hash: Hex): Promise<boolean> {
  try {
    await client.getTransaction({ hash });
    return false;
  } catch (error) {
    if (!(error instanceof BaseError) || error.name !== 'TransactionNotFoundError') return false;
    // Mined between the two reads: not dropped.
    return !(await client.getTransactionReceipt({ hash }).then(
      () => true,
      () => false,
    ));
  }
}
