import { custom, decodeEventLog, erc20Abi, parseUnits, type Address, type Hex } from 'viem';
import { createBundlerClient, formatUserOperationRequest } from 'viem/account-abstraction';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { UserOperationRejectedEvent, UserOperationSubmittedEvent } from './bundler-events.ts';
import type { UserOperationSettlement } from './settlement.ts';
import type { TokenSymbol } from '@stablepay/contract/chain-table';
import { tokenPerNative } from '../clients/gas-price.ts';
import { buildSettlementUserOperation, type SettlementTransfer } from '../customer/build-settlement-user-operation.ts';
import { ProxyCallError, callProxy } from '../customer/call-proxy.ts';
import { createCustomerAccount, type CustomerAccount } from '../customer/create-customer-account.ts';
import { submitAndSettle, submitUserOperation } from '../customer/submit-user-operation.ts';
import { fundAccount, getTokenBalance } from '../network/fund-account.ts';
import { createWeb3Proxy, type Web3Proxy } from '../rpc-proxy/create-web3-proxy.ts';
import { startChainNetwork, type ChainNetwork } from '../network/start-chain-network.ts';

const PAIRS: [number, TokenSymbol][] = [
  [1, 'USDC'],
  [1, 'USDT'],
  [42161, 'USDC'],
  [42161, 'USDT'],
  [8453, 'USDC'],
  [137, 'USDC'],
  [137, 'USDT'],
  [56, 'USDT'],
];

let counter = 0;
/** A fresh lowercase address (lowercase needs no checksum). */
const freshAddress = (): Address => `0x${(0xabc000000n + BigInt(++counter)).toString(16).padStart(40, '0')}`;

describe('one-transaction settlement through the bundler', () => {
  let network: ChainNetwork;
  let proxy: Web3Proxy;
  const submitted: UserOperationSubmittedEvent[] = [];
  const settled: UserOperationSettlement[] = [];
  const rejected: UserOperationRejectedEvent[] = [];

  beforeAll(async () => {
    network = await startChainNetwork();
    proxy = createWeb3Proxy(network, {
      onUserOperationSubmitted: (e) => void submitted.push(e),
      onUserOperationSettled: (e) => void settled.push(e),
      onUserOperationRejected: (e) => void rejected.push(e),
    });
  });
  afterAll(() => network?.stop());

  const units = (chainId: number, token: TokenSymbol, amount: string): bigint => parseUnits(amount, network.tokenDecimals(chainId, token));
  const balances = (chainId: number, token: TokenSymbol, addresses: Address[]) =>
    Promise.all(addresses.map((a) => getTokenBalance(network, chainId, token, a)));

  async function pay(account: CustomerAccount, token: TokenSymbol, transfers: SettlementTransfer[]) {
    const built = await buildSettlementUserOperation({ network, proxy, account, token, transfers });
    const result = await submitAndSettle(proxy, account.chainId, built.userOperation);
    return { ...result, built };
  }

  for (const [chainId, token] of PAIRS) {
    it(`pays merchant and fee collector in ${token} on chain ${chainId}, gas in ${token}, balances exact to the smallest unit`, async () => {
      const account = await createCustomerAccount(network, { chainId, email: `payer-${chainId}-${token}@example.com` });
      // 100 to pay plus 5 for gas.
      await fundAccount(network, chainId, token, account.address, units(chainId, token, '105'));
      const merchant = freshAddress();
      const merchantAmount = units(chainId, token, '99.502487');
      const serviceFee = units(chainId, token, '0.497513');
      const watched = [account.address, merchant, network.feeCollector, network.gasTreasury];
      const before = await balances(chainId, token, watched);

      const { userOpHash, settlement, built } = await pay(account, token, [
        { to: merchant, amountUnits: merchantAmount },
        { to: network.feeCollector, amountUnits: serviceFee },
      ]);
      const after = await balances(chainId, token, watched);

      expect(settlement).toMatchObject({ chainId, userOpHash, success: true, sender: account.address, token });
      const charged = settlement.gasChargedUnits;
      expect(charged).toBeGreaterThan(0n);
      expect(charged).toBeLessThanOrEqual(built.maxGasTokenUnits);
      expect(after[1]! - before[1]!).toBe(merchantAmount);
      expect(after[2]! - before[2]!).toBe(serviceFee);
      expect(after[3]! - before[3]!).toBe(charged);
      expect(before[0]! - after[0]!).toBe(merchantAmount + serviceFee + charged);

      // gasActual: the receipt's actualGasCost at the configured native price, 6 decimals, rounded up.
      const micros = tokenPerNative(network.chain(chainId).entry.nativeUsdPrice, 6);
      const expectedMicros = (settlement.actualGasCost * micros + 10n ** 18n - 1n) / 10n ** 18n;
      expect(settlement.gasActualToken).toMatch(/^\d+\.\d{6}$/);
      expect(parseUnits(settlement.gasActualToken!, 6)).toBe(expectedMicros);
      expect(settlement.actualGasCost).toBe(settlement.actualGasUsed * network.chain(chainId).gasPriceWei);

      // Hooks: submitted, then settled, for this hash; the proxy's receipt agrees.
      const order = [...submitted.map((e) => ['submitted', e.userOpHash]), ...settled.map((e) => ['settled', e.userOpHash])].filter(
        ([, h]) => h === userOpHash,
      );
      expect(order.map(([kind]) => kind)).toEqual(['submitted', 'settled']);
      const receipt = await callProxy<{ success: boolean; receipt: { transactionHash: Hex } }>(
        proxy,
        chainId,
        'eth_getUserOperationReceipt',
        [userOpHash],
      );
      expect(receipt.success).toBe(true);
      expect(receipt.receipt.transactionHash).toBe(settlement.txHash);
    });
  }

  it('splits to five sellers in ONE transaction: 7 payment Transfers + 1 gas Transfer in one receipt', async () => {
    const chainId = 42161;
    const token: TokenSymbol = 'USDT';
    const account = await createCustomerAccount(network, { chainId, email: 'marketplace-buyer@example.com' });
    await fundAccount(network, chainId, token, account.address, units(chainId, token, '1000'));
    const merchant = freshAddress();
    const sellers = Array.from({ length: 5 }, freshAddress);
    const transfers: SettlementTransfer[] = [
      { to: merchant, amountUnits: units(chainId, token, '398.000001') },
      ...sellers.map((to, i) => ({ to, amountUnits: units(chainId, token, `${100 + i}.${i}5`) })),
      { to: network.feeCollector, amountUnits: units(chainId, token, '4.5') },
    ];
    const before = await balances(chainId, token, [merchant, ...sellers, network.feeCollector]);
    const { settlement } = await pay(account, token, transfers);
    expect(settlement.success).toBe(true);
    const after = await balances(chainId, token, [merchant, ...sellers, network.feeCollector]);
    expect(after.map((b, i) => b - before[i]!)).toEqual(transfers.map((t) => t.amountUnits));

    const receipt = await network.chain(chainId).publicClient.getTransactionReceipt({ hash: settlement.txHash });
    const tokenTransfers = receipt.logs
      .filter((l) => l.address.toLowerCase() === network.tokenAddress(chainId, token).toLowerCase())
      .map((l) => decodeEventLog({ abi: erc20Abi, data: l.data, topics: l.topics }))
      .filter((e) => e.eventName === 'Transfer')
      .map((e) => e.args as { from: Address; to: Address; value: bigint });
    // What we count: every token Transfer event of the transaction. Seven pay the recipients (merchant, 5 sellers,
    // fee collector) from the customer's account; the eighth is the paymaster's gas charge to the gas treasury.
    expect(tokenTransfers).toHaveLength(8);
    expect(tokenTransfers.slice(0, 7).map((t) => [t.to.toLowerCase(), t.value])).toEqual(
      transfers.map((t) => [t.to.toLowerCase(), t.amountUnits]),
    );
    expect(tokenTransfers.every((t) => t.from === account.address)).toBe(true);
    expect(tokenTransfers[7]).toMatchObject({ to: network.gasTreasury, value: settlement.gasChargedUnits });
    // One transaction carried exactly one user operation.
    expect(settled.filter((s) => s.txHash === settlement.txHash)).toHaveLength(1);
  });

  it('moves 18-decimal BSC USDT amounts exactly (wei-level precision)', async () => {
    const account = await createCustomerAccount(network, { chainId: 56, email: 'bsc-buyer@example.com' });
    await fundAccount(network, 56, 'USDT', account.address, 50_000_000_000_000_000_001n);
    const merchant = freshAddress();
    const amount = 12_345_678_000_000_000_000n; // 12.345678 USDT as the API would quote it (6 decimals, scaled)
    const odd = 1n; // and the very smallest unit
    const { settlement } = await pay(account, 'USDT', [
      { to: merchant, amountUnits: amount },
      { to: network.feeCollector, amountUnits: odd },
    ]);
    expect(settlement.success).toBe(true);
    expect(await getTokenBalance(network, 56, 'USDT', merchant)).toBe(amount);
    expect(await getTokenBalance(network, 56, 'USDT', account.address)).toBe(
      50_000_000_000_000_000_001n - amount - odd - settlement.gasChargedUnits,
    );
    expect(settlement.gasChargedUnits).toBeGreaterThan(0n);
  });

  it('pays twice from the same account (Ethereum USDT allowance reset path)', async () => {
    const account = await createCustomerAccount(network, { chainId: 1, email: 'returning@example.com' });
    await fundAccount(network, 1, 'USDT', account.address, units(1, 'USDT', '50'));
    const merchant = freshAddress();
    for (let i = 0; i < 2; i++) {
      const { settlement } = await pay(account, 'USDT', [{ to: merchant, amountUnits: units(1, 'USDT', '10') }]);
      expect(settlement.success).toBe(true);
    }
    expect(await getTokenBalance(network, 1, 'USDT', merchant)).toBe(units(1, 'USDT', '20'));
  });

  it('reports a reverted payment as a chain failure; nobody is paid and no gas is charged', async () => {
    const chainId = 8453;
    const account = await createCustomerAccount(network, { chainId, email: 'reverter@example.com' });
    await fundAccount(network, chainId, 'USDC', account.address, units(chainId, 'USDC', '20'));
    const merchant = freshAddress();
    const built = await buildSettlementUserOperation({
      network,
      proxy,
      account,
      token: 'USDC',
      transfers: [{ to: merchant, amountUnits: 5_000_000n }],
      forceRevert: true,
    });
    const { settlement } = await submitAndSettle(proxy, chainId, built.userOperation);
    expect(settlement.success).toBe(false);
    expect(settlement.txHash).toMatch(/^0x[0-9a-f]{64}$/);
    expect(settlement.failure).toMatchObject({ code: 'TRANSACTION_REVERTED', source: 'chain' });
    expect(settlement.revertReason).toContain('allowance');
    expect(settlement.gasChargedUnits).toBe(0n);
    expect(await getTokenBalance(network, chainId, 'USDC', merchant)).toBe(0n);
    expect(await getTokenBalance(network, chainId, 'USDC', account.address)).toBe(units(chainId, 'USDC', '20'));
    expect(settled.find((s) => s.userOpHash === settlement.userOpHash)?.success).toBe(false);
  });

  it('fails the whole payment when nothing is left to pay the gas (the batch is rolled back)', async () => {
    const account = await createCustomerAccount(network, { chainId: 1, email: 'exact-amount@example.com' });
    await fundAccount(network, 1, 'USDC', account.address, units(1, 'USDC', '10'));
    const merchant = freshAddress();
    const { settlement } = await pay(account, 'USDC', [{ to: merchant, amountUnits: units(1, 'USDC', '10') }]);
    expect(settlement.success).toBe(false);
    expect(settlement.revertReason).toMatch(/^gas payment failed: StablecoinGasPaymaster: gas charge failed/);
    expect(await getTokenBalance(network, 1, 'USDC', merchant)).toBe(0n);
    expect(await getTokenBalance(network, 1, 'USDC', account.address)).toBe(units(1, 'USDC', '10'));
  });

  it('reports an insufficient-balance payment as a revert with the token reason', async () => {
    const account = await createCustomerAccount(network, { chainId: 137, email: 'short@example.com' });
    await fundAccount(network, 137, 'USDT', account.address, units(137, 'USDT', '5'));
    const built = await buildSettlementUserOperation({
      network,
      proxy,
      account,
      token: 'USDT',
      transfers: [{ to: freshAddress(), amountUnits: units(137, 'USDT', '6') }],
      allowRevert: true,
    });
    const { settlement } = await submitAndSettle(proxy, 137, built.userOperation);
    expect(settlement.success).toBe(false);
    expect(settlement.revertReason).toBe('ERC20: transfer amount exceeds balance');
  });

  it('rejects a wrongly signed operation in the bundler (no transaction) and reports it', async () => {
    const account = await createCustomerAccount(network, { chainId: 1, email: 'forger@example.com' });
    await fundAccount(network, 1, 'USDC', account.address, units(1, 'USDC', '20'));
    const built = await buildSettlementUserOperation({
      network,
      proxy,
      account,
      token: 'USDC',
      transfers: [{ to: freshAddress(), amountUnits: 1n }],
    });
    const impostor = await createCustomerAccount(network, { chainId: 1, email: 'impostor@example.com' });
    const signature = await impostor.owner.signMessage({ message: { raw: built.userOpHash } });
    const error = await submitUserOperation(proxy, 1, { ...built.userOperation, signature }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ProxyCallError);
    expect((error as ProxyCallError).rpcCode).toBe(-32507);
    expect((error as ProxyCallError).rpcMessage).toContain('AA24 signature error');
    expect(rejected.find((r) => r.userOpHash === built.userOpHash)?.failure).toMatchObject({
      code: 'USER_OPERATION_REJECTED',
      source: 'bundler',
    });
    expect(await callProxy(proxy, 1, 'eth_getUserOperationReceipt', [built.userOpHash])).toBeNull();
  });

  it('rejects an operation whose account cannot cover the gas as INSUFFICIENT_FUNDS', async () => {
    const account = await createCustomerAccount(network, { chainId: 1, email: 'broke@example.com' });
    await fundAccount(network, 1, 'USDC', account.address, 1n);
    const built = await buildSettlementUserOperation({
      network,
      proxy,
      account,
      token: 'USDC',
      transfers: [{ to: freshAddress(), amountUnits: 1n }],
      allowRevert: true,
    });
    const error = (await submitUserOperation(proxy, 1, built.userOperation).catch((e: unknown) => e)) as ProxyCallError;
    expect(error.rpcCode).toBe(-32501);
    expect(rejected.find((r) => r.userOpHash === built.userOpHash)?.failure.code).toBe('INSUFFICIENT_FUNDS');
  });

  it('speaks ERC-7769 to a standard client (viem bundler actions)', async () => {
    const transport = custom({
      request: async ({ method, params }) => {
        const body = (await proxy.handle(8453, JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }))).body as {
          result?: unknown;
          error?: { message: string };
        };
        if (body.error) throw new Error(body.error.message);
        return body.result;
      },
    });
    const client = createBundlerClient({ transport, chain: network.chain(8453).chain });
    expect(await client.getSupportedEntryPoints()).toEqual([network.entryPoint]);
    const account = await createCustomerAccount(network, { chainId: 8453, email: 'viem-client@example.com' });
    await fundAccount(network, 8453, 'USDC', account.address, 10_000_000n);
    const built = await buildSettlementUserOperation({
      network,
      proxy,
      account,
      token: 'USDC',
      transfers: [{ to: freshAddress(), amountUnits: 1_000n }],
    });
    const hash = await client.request({
      method: 'eth_sendUserOperation',
      params: [formatUserOperationRequest(built.userOperation), network.entryPoint],
    });
    const receipt = await client.waitForUserOperationReceipt({ hash });
    expect(receipt).toMatchObject({ success: true, sender: account.address, paymaster: network.paymaster });
    const byHash = await client.getUserOperation({ hash });
    expect(byHash.transactionHash).toBe(receipt.receipt.transactionHash);
    expect(byHash.userOperation.signature).toBe(built.userOperation.signature);
  });

  it('gives an e-mail the same smart account on every chain, and a different one under another seed', async () => {
    const addresses = await Promise.all(
      [...network.chains.keys()].map(
        async (chainId) => (await createCustomerAccount(network, { chainId, email: ' Same@Example.com ' })).address,
      ),
    );
    expect(new Set(addresses).size).toBe(1);
    const other = await startChainNetwork({ chains: [8453], seed: 'another-seed' });
    try {
      expect((await createCustomerAccount(other, { chainId: 8453, email: 'same@example.com' })).address).not.toBe(addresses[0]);
    } finally {
      await other.stop();
    }
  });
});
