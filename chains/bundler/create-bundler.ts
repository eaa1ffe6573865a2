// The simulator's ERC-4337 bundler (EntryPoint v0.7), one per chain network. Each accepted user operation becomes
// its own handleOps transaction (one payment = one transaction hash); bundles of a chain are sent one at a time.
//
// Two modes. 'immediate': eth_sendUserOperation answers once the bundle is mined. 'mempool': it answers once the
// operation is validated (simulated) and accepted; the operation is bundled after a short real-time delay, or — when
// the admission hook holds it — only on bundle(), and drop() removes it before that. Bundling re-simulates first,
// so an operation that became invalid in the mempool is dropped (reported as a bundler rejection), never mined.
import { getAddress, type Address, type Hex } from 'viem';
import { getUserOperationHash } from 'viem/account-abstraction';
import type { ChainHandle } from '../network/chain-handle.ts';
import { TOKENS, type TokenSymbol } from '@stablepay/contract/chain-table';
import { ENTRY_POINT_ADDRESS } from '../roles.ts';
import { serialize } from '../clients/send-transaction.ts';
import type { ChainNetwork } from '../network/start-chain-network.ts';
import type { BundlerHooks, UserOperationAdmission, UserOperationFailure } from './bundler-events.ts';
import { checkAcceptable } from './check-acceptable.ts';
import { UserOperationRejectedError } from './decode-entry-point-error.ts';
import { estimateUserOperationGas, type EstimateUserOperationGasReturnType } from './estimate-user-operation-gas.ts';
import { findMinedUserOperation, mineUserOperation } from './mine-user-operation.ts';
import type { UserOperationV07 } from './parse-user-operation.ts';
import { RPC, RpcError, invalidParams } from './rpc-error.ts';
import type { UserOperationSettlement } from './settlement.ts';
import { resetBundlerNonce, simulateBundle } from './submit-bundle.ts';

export type BundlerMode = 'immediate' | 'mempool';

export interface BundlerOptions {
  /** Default 'immediate'. */
  mode?: BundlerMode;
  /** Mempool mode: real-time delay before an operation that is not held is bundled (default 0–500 ms at random). */
  autoBundleDelayMs?: () => number;
  /**
   * Durable mode: the chain's state is checkpointed to disk after a bundle is mined and before the settlement is
   * reported, so a payment is never recorded SUCCESSFUL on a transaction the restarted chain would not have.
   */
  checkpointBeforeSettling?: boolean;
}

export type UserOperationOutcome =
  | { kind: 'settled'; settlement: UserOperationSettlement }
  | { kind: 'dropped'; failure: UserOperationFailure; rpcCode: number };

export interface StoredUserOperation {
  chainId: number;
  userOpHash: Hex;
  userOperation: UserOperationV07;
  status: 'pending' | 'bundling' | 'settled' | 'dropped';
  /** Held operations wait for bundle() or drop(). */
  hold: boolean;
  settlement?: UserOperationSettlement;
  failure?: UserOperationFailure;
  txHash?: Hex;
  blockHash?: Hex;
  blockNumber?: bigint;
}

export interface Bundler {
  readonly entryPoint: Address;
  readonly mode: BundlerMode;
  /** Validate and accept the operation (mempool), or put it on chain (immediate). Resolves with its hash. */
  sendUserOperation(chainId: number, userOperation: UserOperationV07, context?: unknown): Promise<Hex>;
  estimateUserOperationGas(chainId: number, userOperation: UserOperationV07): Promise<EstimateUserOperationGasReturnType>;
  getUserOperation(chainId: number, userOpHash: Hex): StoredUserOperation | undefined;
  /** Bundle a pending operation now (or join the bundling under way); resolves with its outcome. */
  bundle(chainId: number, userOpHash: Hex): Promise<UserOperationOutcome>;
  /** Drop a pending operation; onUserOperationRejected reports `failure` (stage 'mempool'). */
  drop(chainId: number, userOpHash: Hex, failure: UserOperationFailure): Promise<UserOperationOutcome>;
  /**
   * A pending operation that is no longer this bundler's to send (another bundler sharing the sandbox took it): it
   * leaves the mempool without an outcome and without a hook. False when it was not pending here.
   */
  forget(chainId: number, userOpHash: Hex): boolean;
  waitForOutcome(chainId: number, userOpHash: Hex): Promise<UserOperationOutcome>;
  /** The settlement of an accepted operation (resolves at once if already settled; rejects if it was dropped). */
  waitForSettlement(chainId: number, userOpHash: Hex): Promise<UserOperationSettlement>;
  /**
   * Durable mode, at start: an operation accepted before the simulator stopped (admission is not asked again). Mined
   * by then: its settlement is read from the chain and reported. Not mined: it is back in the mempool, held or
   * bundled as before. Resolves once it is settled from the chain or back in the mempool.
   */
  resume(chainId: number, userOperation: UserOperationV07, options: { hold: boolean }): Promise<Hex>;
  /** Stop auto-bundling and wait for the bundles under way; pending operations stay where they are. */
  close(): Promise<void>;
}

interface Entry extends StoredUserOperation {
  outcome: Promise<UserOperationOutcome>;
  resolve(outcome: UserOperationOutcome): void;
  timer?: NodeJS.Timeout;
}

/** A refusal by the admission hook: the caller gets `error`, and no other hook runs. */
class AdmissionRefused {
  constructor(readonly error: RpcError) {}
}

const defaultAutoBundleDelay = (): number => Math.floor(Math.random() * 500);

export function userOperationHash(chainId: number, userOperation: UserOperationV07): Hex {
  return getUserOperationHash({ chainId, entryPointAddress: ENTRY_POINT_ADDRESS, entryPointVersion: '0.7', userOperation });
}

export function tokenOfUserOperation(handle: ChainHandle, op: UserOperationV07): TokenSymbol | undefined {
  if (op.paymasterData?.length !== 42) return undefined;
  const address = getAddress(op.paymasterData);
  return TOKENS.find((t) => handle.entry.tokens[t]?.address === address);
}

const asRpcError = (error: unknown): RpcError =>
  error instanceof RpcError ? error : new RpcError(RPC.INTERNAL_ERROR, `The bundler failed: ${(error as Error)?.message ?? String(error)}`);

const failureOf = (error: RpcError): UserOperationFailure => ({
  code: error instanceof UserOperationRejectedError ? error.failureCode : 'USER_OPERATION_REJECTED',
  source: 'bundler',
  message: error.message,
});

export function createBundler(network: ChainNetwork, hooks: BundlerHooks = {}, options: BundlerOptions = {}): Bundler {
  const mode = options.mode ?? 'immediate';
  const autoDelay = options.autoBundleDelayMs ?? defaultAutoBundleDelay;
  const store = new Map<string, Entry>();
  const validating = new Set<string>();
  const inFlight = new Set<Promise<unknown>>();
  let closed = false;
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

  async function admit(
    chainId: number,
    userOpHash: Hex,
    op: UserOperationV07,
    phase: 'check' | 'enter',
    context: unknown,
  ): Promise<UserOperationAdmission> {
    if (!hooks.admitUserOperation) return {};
    try {
      return (await hooks.admitUserOperation({ chainId, userOpHash, userOperation: op, phase, context })) ?? {};
    } catch (error) {
      throw new AdmissionRefused(asRpcError(error));
    }
  }

  function track<T>(work: Promise<T>): Promise<T> {
    inFlight.add(work);
    void work.finally(() => inFlight.delete(work)).catch(() => undefined);
    return work;
  }

  function enter(handle: ChainHandle, op: UserOperationV07, userOpHash: Hex, admission: UserOperationAdmission): Entry {
    let resolve!: (o: UserOperationOutcome) => void;
    const outcome = new Promise<UserOperationOutcome>((r) => (resolve = r));
    const entry: Entry = {
      chainId: handle.chainId,
      userOpHash,
      userOperation: op,
      status: 'pending',
      hold: admission.hold === true,
      outcome,
      resolve,
    };
    store.set(key(handle.chainId, userOpHash), entry);
    return entry;
  }

  async function settle(entry: Entry, settlement: UserOperationSettlement): Promise<void> {
    // The operation is mined whatever happens to the checkpoint: a failed one (the chain restarting) is left to the
    // checkpoint that follows every write, and the settlement is still reported, never turned into a drop.
    if (options.checkpointBeforeSettling)
      await network
        .chain(entry.chainId)
        .checkpoint()
        .catch(() => undefined);
    Object.assign(entry, {
      status: 'settled',
      settlement,
      txHash: settlement.txHash,
      blockHash: settlement.blockHash,
      blockNumber: settlement.blockNumber,
    });
    await callHook('onUserOperationSettled', hooks.onUserOperationSettled, settlement);
    entry.resolve({ kind: 'settled', settlement });
  }

  async function dropEntry(entry: Entry, failure: UserOperationFailure, rpcCode: number): Promise<UserOperationOutcome> {
    if (entry.timer) clearTimeout(entry.timer);
    Object.assign(entry, { status: 'dropped', failure });
    await callHook('onUserOperationRejected', hooks.onUserOperationRejected, {
      chainId: entry.chainId,
      userOpHash: entry.userOpHash,
      sender: entry.userOperation.sender,
      stage: 'mempool' as const,
      rpcCode,
      message: failure.message,
      failure,
    });
    const outcome: UserOperationOutcome = { kind: 'dropped', failure, rpcCode };
    entry.resolve(outcome);
    return outcome;
  }

  /** Mempool: mine one accepted operation (re-simulating first); a refusal now drops it. */
  function startBundling(entry: Entry): Promise<UserOperationOutcome> {
    if (entry.timer) clearTimeout(entry.timer);
    entry.status = 'bundling';
    const handle = network.chain(entry.chainId);
    const token = tokenOfUserOperation(handle, entry.userOperation);
    const work = serialize(handle, 'bundle', async () => {
      try {
        await settle(entry, await mineUserOperation(handle, entry.userOperation, entry.userOpHash, token));
      } catch (error) {
        const rpcError = asRpcError(error);
        await dropEntry(entry, failureOf(rpcError), rpcError.code);
      }
    });
    void track(work);
    return entry.outcome;
  }

  async function acceptIntoMempool(handle: ChainHandle, op: UserOperationV07, userOpHash: Hex, context: unknown): Promise<void> {
    await simulateBundle(handle, op);
    const admission = await admit(handle.chainId, userOpHash, op, 'enter', context);
    const entry = enter(handle, op, userOpHash, admission);
    await callHook('onUserOperationSubmitted', hooks.onUserOperationSubmitted, {
      chainId: handle.chainId,
      userOpHash,
      sender: op.sender,
      token: tokenOfUserOperation(handle, op),
      userOperation: op,
    });
    scheduleBundling(entry);
  }

  /** Mempool: an operation that is not held is bundled after the auto-bundle delay. */
  function scheduleBundling(entry: Entry): void {
    if (!entry.hold && entry.status === 'pending' && !closed) {
      entry.timer = setTimeout(
        () => {
          entry.timer = undefined;
          if (entry.status === 'pending' && !closed) void startBundling(entry);
        },
        Math.max(0, autoDelay()),
      );
      entry.timer.unref();
    }
  }

  async function submitImmediately(handle: ChainHandle, op: UserOperationV07, userOpHash: Hex, context: unknown): Promise<void> {
    const data = await simulateBundle(handle, op);
    const admission = await admit(handle.chainId, userOpHash, op, 'enter', context);
    const entry = enter(handle, op, userOpHash, admission);
    entry.status = 'bundling';
    await callHook('onUserOperationSubmitted', hooks.onUserOperationSubmitted, {
      chainId: handle.chainId,
      userOpHash,
      sender: op.sender,
      token: tokenOfUserOperation(handle, op),
      userOperation: op,
    });
    await settle(entry, await mineUserOperation(handle, op, userOpHash, tokenOfUserOperation(handle, op), data));
  }

  const entryOf = (chainId: number, hash: Hex): Entry => {
    const entry = store.get(key(chainId, hash));
    if (!entry) throw new RpcError(RPC.INVALID_PARAMS, `unknown user operation ${hash} on chain ${chainId}`);
    return entry;
  };

  return {
    entryPoint: ENTRY_POINT_ADDRESS,
    mode,
    async sendUserOperation(chainId, op, context) {
      if (closed) throw new RpcError(RPC.INTERNAL_ERROR, 'The bundler is shutting down');
      const handle = network.chain(chainId);
      const userOpHash = userOperationHash(chainId, op);
      const k = key(chainId, userOpHash);
      if (store.has(k) || validating.has(k)) throw invalidParams(`user operation ${userOpHash} is already known`);
      validating.add(k);
      try {
        await handle.ready();
        checkAcceptable(handle, op);
        await admit(chainId, userOpHash, op, 'check', context);
        if (mode === 'mempool') await acceptIntoMempool(handle, op, userOpHash, context);
        else await track(serialize(handle, 'bundle', () => submitImmediately(handle, op, userOpHash, context)));
      } catch (error) {
        if (error instanceof AdmissionRefused) throw error.error;
        const rpcError = asRpcError(error);
        const stored = store.get(k);
        if (stored && stored.status !== 'settled') {
          // Not accepted after all (immediate mode: the bundle failed): forget it so it may be sent again.
          store.delete(k);
          stored.resolve({ kind: 'dropped', failure: failureOf(rpcError), rpcCode: rpcError.code });
        }
        await callHook('onUserOperationRejected', hooks.onUserOperationRejected, {
          chainId,
          userOpHash,
          sender: op.sender,
          stage: 'admission' as const,
          rpcCode: rpcError.code,
          message: rpcError.message,
          failure: failureOf(rpcError),
        });
        throw rpcError;
      } finally {
        validating.delete(k);
      }
      return userOpHash;
    },
    async estimateUserOperationGas(chainId, op) {
      const handle = network.chain(chainId);
      await handle.ready();
      return estimateUserOperationGas(handle, op);
    },
    getUserOperation: (chainId, hash) => store.get(key(chainId, hash)),
    async bundle(chainId, hash) {
      const entry = entryOf(chainId, hash);
      if (entry.status === 'pending') {
        if (closed) throw new RpcError(RPC.INTERNAL_ERROR, 'The bundler is shutting down');
        return startBundling(entry);
      }
      return entry.outcome;
    },
    async drop(chainId, hash, failure) {
      const entry = entryOf(chainId, hash);
      if (entry.status !== 'pending') {
        throw new RpcError(
          RPC.INVALID_PARAMS,
          `user operation ${hash} can no longer be dropped: it is ${entry.status === 'bundling' ? 'being bundled' : entry.status}`,
        );
      }
      return dropEntry(entry, failure, RPC.REJECTED_BY_ENTRY_POINT);
    },
    forget(chainId, hash) {
      const entry = store.get(key(chainId, hash));
      if (entry?.status !== 'pending') return false;
      if (entry.timer) clearTimeout(entry.timer);
      store.delete(key(chainId, hash));
      return true;
    },
    waitForOutcome: async (chainId, hash) => entryOf(chainId, hash).outcome,
    async waitForSettlement(chainId, hash) {
      const outcome = await entryOf(chainId, hash).outcome;
      if (outcome.kind === 'settled') return outcome.settlement;
      throw new RpcError(outcome.rpcCode, `user operation ${hash} was dropped: ${outcome.failure.message}`);
    },
    async resume(chainId, op, { hold }) {
      if (closed) throw new RpcError(RPC.INTERNAL_ERROR, 'The bundler is shutting down');
      const handle = network.chain(chainId);
      const userOpHash = userOperationHash(chainId, op);
      if (store.has(key(chainId, userOpHash))) return userOpHash;
      const entry = enter(handle, op, userOpHash, { hold });
      const token = tokenOfUserOperation(handle, op);
      const mined = await track(findMinedUserOperation(handle, userOpHash, token));
      if (mined) {
        entry.status = 'bundling';
        await track(settle(entry, mined));
      } else {
        scheduleBundling(entry);
      }
      return userOpHash;
    },
    async close() {
      closed = true;
      for (const entry of store.values()) if (entry.timer) clearTimeout(entry.timer);
      while (inFlight.size > 0) await Promise.allSettled([...inFlight]);
    },
  };
}
