import type { Address, Hex } from 'viem';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { UserOperationAdmissionEvent, UserOperationRejectedEvent, UserOperationSubmittedEvent } from './bundler-events.ts';
import { RPC, RpcError } from './rpc-error.ts';
import type { UserOperationSettlement } from './settlement.ts';
import { buildSettlementUserOperation } from '../customer/build-settlement-user-operation.ts';
import { ProxyCallError, callProxy } from '../customer/call-proxy.ts';
import { createCustomerAccount } from '../customer/create-customer-account.ts';
import { submitUserOperation } from '../customer/submit-user-operation.ts';
import { fundAccount, getTokenBalance } from '../network/fund-account.ts';
import { createWeb3Proxy, type Web3Proxy } from '../rpc-proxy/create-web3-proxy.ts';
import { startChainNetwork, type ChainNetwork } from '../network/start-chain-network.ts';

const CHAIN = 8453;
let counter = 0;
const freshAddress = (): Address => `0x${(0xf00d0000n + BigInt(++counter)).toString(16).padStart(40, '0')}`;

describe('bundler in mempool mode', () => {
  let network: ChainNetwork;
  let proxy: Web3Proxy;
  const admitted: UserOperationAdmissionEvent[] = [];
  const submitted: UserOperationSubmittedEvent[] = [];
  const settled: UserOperationSettlement[] = [];
  const rejected: UserOperationRejectedEvent[] = [];
  /** context -> decision of the admission hook */
  const policy = (context: unknown): { hold?: boolean } => {
    if (context === 'refuse') throw new RpcError(RPC.INVALID_PARAMS, 'not your payment');
    return { hold: context === 'hold' };
  };

  beforeAll(async () => {
    network = await startChainNetwork({ chains: [CHAIN] });
    proxy = createWeb3Proxy(
      network,
      {
        admitUserOperation: (e) => {
          admitted.push(e);
          return policy(e.context);
        },
        onUserOperationSubmitted: (e) => void submitted.push(e),
        onUserOperationSettled: (e) => void settled.push(e),
        onUserOperationRejected: (e) => void rejected.push(e),
      },
      { mode: 'mempool', autoBundleDelayMs: () => 30 },
    );
  });
  afterAll(async () => {
    await proxy?.bundler.close();
    await network?.stop();
  });

  async function signedPayment(email: string, amountUnits = 1_000_000n) {
    const account = await createCustomerAccount(network, { chainId: CHAIN, email });
    await fundAccount(network, CHAIN, 'USDC', account.address, 20_000_000n);
    const merchant = freshAddress();
    const built = await buildSettlementUserOperation({
      network,
      proxy,
      account,
      token: 'USDC',
      transfers: [{ to: merchant, amountUnits }],
    });
    return { account, merchant, built };
  }

  const send = (op: Parameters<typeof submitUserOperation>[2]): Promise<Hex> => submitUserOperation(proxy, CHAIN, op);

  async function sendWithContext(
    built: Awaited<ReturnType<typeof signedPayment>>['built'],
    context: unknown,
  ): Promise<{ result?: Hex; error?: { code: number; message: string } }> {
    const { formatUserOperationRequest } = await import('viem/account-abstraction');
    const res = await proxy.handle(
      CHAIN,
      JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'eth_sendUserOperation',
        params: [formatUserOperationRequest(built.userOperation), network.entryPoint],
      }),
      context,
    );
    return res.body as { result?: Hex; error?: { code: number; message: string } };
  }

  it('accepts first (hash, no receipt yet), then bundles by itself after the delay', async () => {
    const { built, merchant } = await signedPayment('auto@example.com');
    const hash = await send(built.userOperation);
    expect(hash).toBe(built.userOpHash);
    expect(submitted.some((s) => s.userOpHash === hash)).toBe(true);
    expect(proxy.bundler.getUserOperation(CHAIN, hash)?.status).toBe('pending');
    expect(await callProxy(proxy, CHAIN, 'eth_getUserOperationReceipt', [hash])).toBeNull();
    const byHash = await callProxy<{ transactionHash: Hex | null }>(proxy, CHAIN, 'eth_getUserOperationByHash', [hash]);
    expect(byHash.transactionHash).toBeNull();
    const settlement = await proxy.waitForSettlement(CHAIN, hash);
    expect(settlement.success).toBe(true);
    expect(await getTokenBalance(network, CHAIN, 'USDC', merchant)).toBe(1_000_000n);
    expect(proxy.bundler.getUserOperation(CHAIN, hash)?.status).toBe('settled');
    expect(admitted.filter((a) => a.userOpHash === hash).map((a) => a.phase)).toEqual(['check', 'enter']);
  });

  it('holds an operation until bundle(); replays are refused as already known', async () => {
    const { built, merchant } = await signedPayment('held@example.com');
    const answer = await sendWithContext(built, 'hold');
    expect(answer.result).toBe(built.userOpHash);
    await new Promise((r) => setTimeout(r, 120));
    expect(proxy.bundler.getUserOperation(CHAIN, built.userOpHash)?.status).toBe('pending');
    expect(await getTokenBalance(network, CHAIN, 'USDC', merchant)).toBe(0n);
    expect((await sendWithContext(built, 'hold')).error?.message).toContain('already known');
    const outcome = await proxy.bundler.bundle(CHAIN, built.userOpHash);
    expect(outcome.kind).toBe('settled');
    expect(await getTokenBalance(network, CHAIN, 'USDC', merchant)).toBe(1_000_000n);
    await expect(proxy.bundler.drop(CHAIN, built.userOpHash, { code: 'X', source: 'bundler', message: 'too late' })).rejects.toThrow(
      /can no longer be dropped: it is settled/,
    );
    expect((await sendWithContext(built, 'hold')).error?.message).toContain('already known');
  });

  it('drops a held operation with the given failure; nothing reaches the chain', async () => {
    const { built, merchant, account } = await signedPayment('dropped@example.com');
    await sendWithContext(built, 'hold');
    const before = await getTokenBalance(network, CHAIN, 'USDC', account.address);
    const outcome = await proxy.bundler.drop(CHAIN, built.userOpHash, {
      code: 'USER_OPERATION_REJECTED',
      source: 'bundler',
      message: 'dropped by test',
    });
    expect(outcome).toMatchObject({ kind: 'dropped', failure: { message: 'dropped by test' } });
    expect(rejected.find((r) => r.userOpHash === built.userOpHash)).toMatchObject({
      stage: 'mempool',
      failure: { code: 'USER_OPERATION_REJECTED', source: 'bundler' },
    });
    await expect(proxy.waitForSettlement(CHAIN, built.userOpHash)).rejects.toThrow(/was dropped: dropped by test/);
    expect(await proxy.bundler.bundle(CHAIN, built.userOpHash)).toEqual(outcome);
    expect(await getTokenBalance(network, CHAIN, 'USDC', merchant)).toBe(0n);
    expect(await getTokenBalance(network, CHAIN, 'USDC', account.address)).toBe(before);
  });

  it('forgets a held operation another bundler took: it leaves the mempool with no hook and no outcome; a settled one stays', async () => {
    const { built, merchant } = await signedPayment('forgotten@example.com');
    await sendWithContext(built, 'hold');
    const hooksBefore = settled.length + rejected.length;
    expect(proxy.bundler.forget(CHAIN, built.userOpHash)).toBe(true);
    expect(proxy.bundler.getUserOperation(CHAIN, built.userOpHash)).toBeUndefined();
    expect(settled.length + rejected.length).toBe(hooksBefore);
    expect(proxy.bundler.forget(CHAIN, built.userOpHash)).toBe(false);
    // Taken back later (the simulator's takeover resumes it): held again, bundled once asked.
    await proxy.bundler.resume(CHAIN, built.userOperation, { hold: true });
    expect((await proxy.bundler.bundle(CHAIN, built.userOpHash)).kind).toBe('settled');
    expect(await getTokenBalance(network, CHAIN, 'USDC', merchant)).toBe(1_000_000n);
    expect(proxy.bundler.forget(CHAIN, built.userOpHash)).toBe(false);
    expect(proxy.bundler.getUserOperation(CHAIN, built.userOpHash)?.status).toBe('settled');
  });

  it("an admission refusal is the caller's error: no simulation, no other hook, nothing stored", async () => {
    const { built } = await signedPayment('refused@example.com');
    const answer = await sendWithContext(built, 'refuse');
    expect(answer.error).toEqual({ code: -32602, message: 'not your payment' });
    expect(proxy.bundler.getUserOperation(CHAIN, built.userOpHash)).toBeUndefined();
    expect(submitted.some((s) => s.userOpHash === built.userOpHash)).toBe(false);
    expect(rejected.some((r) => r.userOpHash === built.userOpHash)).toBe(false);
    // The same operation may come again with the right credentials.
    expect((await sendWithContext(built, 'hold')).result).toBe(built.userOpHash);
    await proxy.bundler.drop(CHAIN, built.userOpHash, { code: 'X', source: 'bundler', message: 'cleanup' });
  });

  it('a bad signature is refused at admission and reported with stage "admission"', async () => {
    const { built } = await signedPayment('forger@example.com');
    const impostor = await createCustomerAccount(network, { chainId: CHAIN, email: 'impostor@example.com' });
    const signature = await impostor.owner.signMessage({ message: { raw: built.userOpHash } });
    const error = (await submitUserOperation(proxy, CHAIN, { ...built.userOperation, signature }).catch(
      (e: unknown) => e,
    )) as ProxyCallError;
    expect(error).toBeInstanceOf(ProxyCallError);
    expect(error.rpcCode).toBe(-32507);
    expect(rejected.find((r) => r.userOpHash === built.userOpHash)).toMatchObject({ stage: 'admission' });
    expect(proxy.bundler.getUserOperation(CHAIN, built.userOpHash)).toBeUndefined();
  });

  it('re-simulates before bundling: an operation that went stale in the mempool is dropped, not mined', async () => {
    // Two operations with the same nonce from one account: both valid alone, only the first can be mined.
    const account = await createCustomerAccount(network, { chainId: CHAIN, email: 'double@example.com' });
    await fundAccount(network, CHAIN, 'USDC', account.address, 20_000_000n);
    const first = await buildSettlementUserOperation({
      network,
      proxy,
      account,
      token: 'USDC',
      transfers: [{ to: freshAddress(), amountUnits: 1n }],
    });
    const second = await buildSettlementUserOperation({
      network,
      proxy,
      account,
      token: 'USDC',
      transfers: [{ to: freshAddress(), amountUnits: 2n }],
    });
    expect(first.userOperation.nonce).toBe(second.userOperation.nonce);
    await sendWithContext(first, 'hold');
    await sendWithContext(second, 'hold');
    expect((await proxy.bundler.bundle(CHAIN, first.userOpHash)).kind).toBe('settled');
    const outcome = await proxy.bundler.bundle(CHAIN, second.userOpHash);
    expect(outcome.kind).toBe('dropped');
    if (outcome.kind === 'dropped')
      expect(outcome.failure).toMatchObject({
        code: 'USER_OPERATION_REJECTED',
        source: 'bundler',
        message: expect.stringMatching(/AA1|AA25/),
      });
    expect(rejected.find((r) => r.userOpHash === second.userOpHash)?.stage).toBe('mempool');
    expect(settled.some((s) => s.userOpHash === second.userOpHash)).toBe(false);
  });

  it('resume() after a restart: an operation already mined is settled from the chain (same transaction, not mined again); one not mined goes back in the mempool', async () => {
    // What a restarted simulator's fresh bundler sees: operations another bundler accepted before the stop.
    const restartedSettled: UserOperationSettlement[] = [];
    const restarted = createWeb3Proxy(
      network,
      { onUserOperationSettled: (e) => void restartedSettled.push(e) },
      { mode: 'mempool', autoBundleDelayMs: () => 30 },
    );
    try {
      const mined = await signedPayment('resume-mined@example.com');
      await send(mined.built.userOperation);
      const original = await proxy.waitForSettlement(CHAIN, mined.built.userOpHash);
      const blockBefore = await network.chain(CHAIN).publicClient.getBlockNumber();
      expect(await restarted.bundler.resume(CHAIN, mined.built.userOperation, { hold: false })).toBe(mined.built.userOpHash);
      expect(restartedSettled.find((e) => e.userOpHash === mined.built.userOpHash)).toMatchObject({
        txHash: original.txHash,
        success: true,
        blockNumber: original.blockNumber,
        gasChargedUnits: original.gasChargedUnits,
      });
      expect(await network.chain(CHAIN).publicClient.getBlockNumber()).toBe(blockBefore);
      expect(await getTokenBalance(network, CHAIN, 'USDC', mined.merchant)).toBe(1_000_000n);

      const held = await signedPayment('resume-held@example.com');
      await restarted.bundler.resume(CHAIN, held.built.userOperation, { hold: true });
      expect(restarted.bundler.getUserOperation(CHAIN, held.built.userOpHash)?.status).toBe('pending');
      expect((await restarted.bundler.bundle(CHAIN, held.built.userOpHash)).kind).toBe('settled');
      expect(await getTokenBalance(network, CHAIN, 'USDC', held.merchant)).toBe(1_000_000n);
    } finally {
      await restarted.bundler.close();
    }
  });

  it('with checkpointBeforeSettling (durable mode), the chain state is on disk before the settlement is reported', async () => {
    const handle = network.chain(CHAIN);
    const order: string[] = [];
    const original = handle.checkpoint.bind(handle);
    const spy = vi.spyOn(handle, 'checkpoint').mockImplementation(async () => {
      order.push('checkpoint started');
      await original();
      order.push('checkpoint done');
    });
    const durable = createWeb3Proxy(
      network,
      { onUserOperationSettled: () => void order.push('settled reported') },
      { mode: 'mempool', autoBundleDelayMs: () => 0, checkpointBeforeSettling: true },
    );
    try {
      const { built } = await signedPayment('checkpointed@example.com');
      await submitUserOperation(durable, CHAIN, built.userOperation);
      await durable.waitForSettlement(CHAIN, built.userOpHash);
      expect(order.slice(order.lastIndexOf('checkpoint started'))).toEqual(['checkpoint started', 'checkpoint done', 'settled reported']);
    } finally {
      spy.mockRestore();
      await durable.bundler.close();
    }
  });

  it('a checkpoint that fails before settling still reports the mined operation as settled, not dropped', async () => {
    const spy = vi.spyOn(network.chain(CHAIN), 'checkpoint').mockRejectedValue(new Error('chain restarting'));
    const durable = createWeb3Proxy(network, {}, { mode: 'mempool', autoBundleDelayMs: () => 0, checkpointBeforeSettling: true });
    try {
      const { built, merchant } = await signedPayment('checkpoint-fails@example.com');
      await submitUserOperation(durable, CHAIN, built.userOperation);
      expect((await durable.bundler.waitForOutcome(CHAIN, built.userOpHash)).kind).toBe('settled');
      expect(spy).toHaveBeenCalled();
      expect(await getTokenBalance(network, CHAIN, 'USDC', merchant)).toBe(1_000_000n);
    } finally {
      spy.mockRestore();
      await durable.bundler.close();
    }
  });

  it('close() stops auto-bundling and refuses new operations', async () => {
    const other = createWeb3Proxy(network, {}, { mode: 'mempool', autoBundleDelayMs: () => 60_000 });
    const { built } = await signedPayment('late@example.com');
    await submitUserOperation(other, CHAIN, built.userOperation);
    await other.bundler.close();
    expect(other.bundler.getUserOperation(CHAIN, built.userOpHash)?.status).toBe('pending');
    const again = await signedPayment('later@example.com');
    await expect(submitUserOperation(other, CHAIN, again.built.userOperation)).rejects.toThrow(/shutting down/);
  });
});
