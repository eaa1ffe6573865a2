// The simulator's ERC-4337 bundler (EntryPoint v0.7), one per chain network. Each accepted user operation becomes
// its own handleOps transaction (one payment = one transaction hash); bundles of a chain are sent one at a time.
import { getAddress, type Address, type Hex } from 'viem';
import { getUserOperationHash } from 'viem/account-abstraction';
import type { ChainHandle } from '../chain-handle.ts';
import { TOKEN_SYMBOLS, tokenPerNative, type TokenSymbol } from '../chain-table.ts';
import { ENTRY_POINT_ADDRESS } from '../roles.ts';
import { serialize } from '../send-transaction.ts';
import type { ChainNetwork } from '../start-chain-network.ts';
import type { BundlerHooks } from './bundler-events.ts';
import { computePreVerificationGas } from './compute-pre-verification-gas.ts';
import { UserOperationRejectedError } from './decode-entry-point-error.ts';
import { estimateUserOperationGas, type EstimateUserOperationGasReturnType } from './estimate-user-operation-gas.ts';
import type { UserOperationV07 } from './parse-user-operation.ts';
import { RPC, RpcError, invalidParams } from './rpc-error.ts';
import { readSettlement, type UserOperationSettlement } from './settlement.ts';
import { resetBundlerNonce, sendBundle, simulateBundle } from './submit-bundle.ts';

export interface StoredUserOperation {
  chainId: number;
  userOpHash: Hex;
  userOperation: UserOperationV07;
  status: 'pending' | 'settled';
  settlement?: UserOperationSettlement;
  txHash?: Hex;
  blockHash?: Hex;
  blockNumber?: bigint;
}

export interface Bundler {
  readonly entryPoint: Address;
  /** Validate, simulate and put the operation on chain. Resolves with its hash once the receipt is read. */
  sendUserOperation(chainId: number, userOperation: UserOperationV07): Promise<Hex>;
  estimateUserOperationGas(chainId: number, userOperation: UserOperationV07): Promise<EstimateUserOperationGasReturnType>;
  getUserOperation(chainId: number, userOpHash: Hex): StoredUserOperation | undefined;
  /** The settlement of an accepted operation (resolves at once when already settled). */
  waitForSettlement(chainId: number, userOpHash: Hex): Promise<UserOperationSettlement>;
}

const MAX_TOTAL_GAS = 25_000_000n;

export function userOperationHash(chainId: number, userOperation: UserOperationV07): Hex {
  return getUserOperationHash({ chainId, entryPointAddress: ENTRY_POINT_ADDRESS, entryPointVersion: '0.7', userOperation });
}

export function tokenOfUserOperation(handle: ChainHandle, op: UserOperationV07): TokenSymbol | undefined {
  if (!op.paymasterData || op.paymasterData.length !== 42) return undefined;
  const address = getAddress(op.paymasterData);
  return TOKEN_SYMBOLS.find((t) => handle.entry.tokens[t]?.address === address);
}

export function createBundler(network: ChainNetwork, hooks: BundlerHooks = {}): Bundler {
  const store = new Map<string, StoredUserOperation>();
  const waiters = new Map<string, ((s: UserOperationSettlement) => void)[]>();
  const key = (chainId: number, hash: Hex): string => `${chainId}:${hash.toLowerCase()}`;
  const reportHookError = hooks.onHookError ?? ((hook: string, error: unknown) => console.error(`bundler hook ${hook} failed:`, error));
  const callHook = async <E>(name: keyof BundlerHooks, fn: ((e: E) => void | Promise<void>) | undefined, event: E): Promise<void> => {
    if (!fn) return;
    try {
      await fn(event);
    } catch (error) {
      reportHookError(name, error);
    }
  };
  network.events.on('chain-restarted', ({ chainId }) => {
    const handle = network.chains.get(chainId);
    if (handle) resetBundlerNonce(handle);
  });

  function checkAcceptable(handle: ChainHandle, op: UserOperationV07): void {
    if (op.maxPriorityFeePerGas < handle.gasPriceWei) {
      throw invalidParams(
        `maxPriorityFeePerGas ${op.maxPriorityFeePerGas} is below chain ${handle.chainId}'s gas price ${handle.gasPriceWei} wei (ask eth_maxPriorityFeePerGas)`,
      );
    }
    const required = computePreVerificationGas(op);
    if (op.preVerificationGas < required) throw invalidParams(`preVerificationGas ${op.preVerificationGas} is below the required ${required}`);
    const total = op.verificationGasLimit + op.callGasLimit + (op.paymasterVerificationGasLimit ?? 0n) + (op.paymasterPostOpGasLimit ?? 0n);
    if (total + op.preVerificationGas > MAX_TOTAL_GAS) throw invalidParams(`the operation's gas limits add up to more than ${MAX_TOTAL_GAS}`);
  }

  async function submit(handle: ChainHandle, op: UserOperationV07, userOpHash: Hex): Promise<void> {
    const token = tokenOfUserOperation(handle, op);
    const data = await simulateBundle(handle, op);
    const entry: StoredUserOperation = { chainId: handle.chainId, userOpHash, userOperation: op, status: 'pending' };
    store.set(key(handle.chainId, userOpHash), entry);
    await callHook('onUserOperationSubmitted', hooks.onUserOperationSubmitted, { chainId: handle.chainId, userOpHash, sender: op.sender, token, userOperation: op });
    const receipt = await sendBundle(handle, op, data);
    const block = await handle.publicClient.getBlock({ blockHash: receipt.blockHash });
    const settlement = readSettlement({
      chainId: handle.chainId,
      userOpHash,
      receipt,
      blockTimestampMs: Number(block.timestamp) * 1000,
      nativeUsdMicros: tokenPerNative(handle.entry.nativeUsdPrice, 6),
      token,
    });
    if (!settlement) {
      store.delete(key(handle.chainId, userOpHash));
      throw new RpcError(RPC.INTERNAL_ERROR, `Bundle ${receipt.transactionHash} on chain ${handle.chainId} carried no UserOperationEvent for ${userOpHash}`);
    }
    Object.assign(entry, { status: 'settled', settlement, txHash: receipt.transactionHash, blockHash: receipt.blockHash, blockNumber: receipt.blockNumber });
    await callHook('onUserOperationSettled', hooks.onUserOperationSettled, settlement);
    for (const resolve of waiters.get(key(handle.chainId, userOpHash)) ?? []) resolve(settlement);
    waiters.delete(key(handle.chainId, userOpHash));
  }

  return {
    entryPoint: ENTRY_POINT_ADDRESS,
    async sendUserOperation(chainId, op) {
      const handle = network.chain(chainId);
      const userOpHash = userOperationHash(chainId, op);
      if (store.has(key(chainId, userOpHash))) throw invalidParams(`user operation ${userOpHash} is already known`);
      try {
        await handle.ready();
        checkAcceptable(handle, op);
        await serialize(handle, 'bundle', () => submit(handle, op, userOpHash));
      } catch (error) {
        const stored = store.get(key(chainId, userOpHash));
        if (stored && stored.status !== 'settled') store.delete(key(chainId, userOpHash));
        const rpcError = error instanceof RpcError ? error : new RpcError(RPC.INTERNAL_ERROR, `The bundler failed: ${(error as Error).message}`);
        const failureCode = rpcError instanceof UserOperationRejectedError ? rpcError.failureCode : 'USER_OPERATION_REJECTED';
        await callHook('onUserOperationRejected', hooks.onUserOperationRejected, {
          chainId,
          userOpHash,
          sender: op.sender,
          rpcCode: rpcError.code,
          message: rpcError.message,
          failure: { code: failureCode, source: 'bundler' as const, message: rpcError.message },
        });
        throw rpcError;
      }
      return userOpHash;
    },
    async estimateUserOperationGas(chainId, op) {
      const handle = network.chain(chainId);
      await handle.ready();
      return estimateUserOperationGas(handle, op);
    },
    getUserOperation: (chainId, hash) => store.get(key(chainId, hash)),
    waitForSettlement(chainId, hash) {
      const stored = store.get(key(chainId, hash));
      if (stored?.settlement) return Promise.resolve(stored.settlement);
      if (!stored) return Promise.reject(new RpcError(RPC.INVALID_PARAMS, `unknown user operation ${hash} on chain ${chainId}`));
      return new Promise((resolve) => {
        const list = waiters.get(key(chainId, hash)) ?? [];
        list.push(resolve);
        waiters.set(key(chainId, hash), list);
      });
    },
  };
}
