// End to end on the five local chains: a payment created through the API is paid by the customer through the real
// path (checkout sign-in, prepare, sign, eth_sendUserOperation on /v1/web3/{chainId} with the checkout token), and
// what the API then says (status, amounts, txHash, gasActual, paidAt, ledger) is checked against the chain itself.
import { decodeEventLog, encodeFunctionData, isAddressEqual, parseAbi, type Address, type Hex, type Log } from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSimulator } from '../../runtime/app.ts';
import { getTokenBalance, smartAccountOf, startChainNetwork, type ChainNetwork } from '@stablepay/chains';
import type { TokenSymbol } from '@stablepay/contract/chain-table';
import { sendTransaction } from '@stablepay/chains/send-transaction';
import { tokenUnits } from '../checkout/index.ts';
import { VirtualClock } from '../clock/virtual-clock.ts';
import { Conflict } from '../refusals/refusals.ts';
import { createChainHarness, signUserOpHash, type ChainHarness } from '../../test-support/chain-harness.ts';
import { SELLER_A, TEST_API_KEY, TEST_START } from '../../test-support/harness.ts';
import { startReceiver, verifyAsMerchant } from '../../test-support/webhooks.ts';

const TRANSFER = parseAbi(['event Transfer(address indexed from, address indexed to, uint256 value)']);
const BLACKLIST = parseAbi(['function blacklist(address account)', 'function unBlacklist(address account)']);
const quiet = { info() {}, error() {} };

let network: ChainNetwork;
beforeAll(async () => {
  network = await startChainNetwork();
});
afterAll(async () => network?.stop());

let seller = 0;
const freshSeller = (): string => `0x${(0x5e11e40000n + BigInt(++seller)).toString(16).padStart(40, '0')}`;

/** Token Transfer events of the transaction, in log order. */
function tokenTransfers(logs: readonly Log[], token: Address): { from: Address; to: Address; value: bigint }[] {
  return logs
    .filter((l) => isAddressEqual(l.address, token))
    .flatMap((l) => {
      try {
        return [decodeEventLog({ abi: TRANSFER, data: l.data, topics: l.topics as [Hex, ...Hex[]] }).args];
      } catch {
        return [];
      }
    });
}

describe('a payment paid on each chain through the real customer path', () => {
  let h: ChainHarness;
  beforeAll(() => {
    h = createChainHarness(network);
  });
  afterAll(async () => h?.sim.close());

  const CASES: [number, TokenSymbol][] = [
    [1, 'USDT'],
    [42161, 'USDC'],
    [8453, 'USDC'],
    [137, 'USDT'],
    [56, 'USDT'],
  ];

  it.each(CASES)(
    'chain %i, %s: SUCCESSFUL, balances exact to the smallest unit, API consistent with the receipt',
    async (chainId, token) => {
      const sellers = [
        { address: SELLER_A, amount: '30.10' },
        { address: freshSeller(), amount: '12' },
      ];
      const created = await h.createPayment({ amount: '250.55', currency: 'EUR', sellers, externalId: `chain-${chainId}` });
      expect(created.status).toBe(201);
      const id = created.body.id as string;
      const decimals = network.tokenDecimals(chainId, token);
      const merchant = h.sim.defaultMerchant.walletAddress as Address;
      const watched: Address[] = [merchant, ...sellers.map((s) => s.address as Address), network.feeCollector, network.gasTreasury];
      const before = await Promise.all(watched.map((a) => getTokenBalance(network, chainId, token, a)));

      const { prepared, reply } = await h.pay(id, { chainId, token });
      expect(reply.body).toEqual({ jsonrpc: '2.0', id: 1, result: prepared.userOpHash });
      const customerBefore = await getTokenBalance(network, chainId, token, prepared.sender);
      const done = await h.settled(id);
      const p = done.body;
      expect(p).toMatchObject({
        status: 'SUCCESSFUL',
        chainId,
        token,
        exchangeRate: '1.080000',
        amountToken: '270.594000',
        serviceFeeToken: '1.350000',
        error: null,
      });
      expect(h.webhooks.emitted.filter((e) => e.paymentId === id).map((e) => e.type)).toEqual(['payment.processing', 'payment.completed']);

      // The transaction on chain is the one the API names, and it did exactly what the quote said.
      const handle = network.chain(chainId);
      const receipt = await handle.publicClient.getTransactionReceipt({ hash: p.txHash });
      expect(receipt.status).toBe('success');
      const block = await handle.publicClient.getBlock({ blockHash: receipt.blockHash });
      expect(Date.parse(p.paidAt)).toBe(Math.min(Number(block.timestamp) * 1000, h.sim.clock.now()));
      const moves = tokenTransfers(receipt.logs, network.tokenAddress(chainId, token)).filter((t) =>
        isAddressEqual(t.from, prepared.sender),
      );
      const sellerTokens = h.sim.payments.store.get(id)?.sellersToken ?? [];
      const expected = [
        [merchant, tokenUnits(p.merchantFeeToken, decimals)],
        ...sellers.map((s, i) => [s.address, tokenUnits(sellerTokens[i] as string, decimals)]),
        [network.feeCollector, tokenUnits(p.serviceFeeToken, decimals)],
      ] as [string, bigint][];
      expect(moves.slice(0, 4).map((m) => [m.to.toLowerCase(), m.value])).toEqual(expected.map(([a, v]) => [a.toLowerCase(), v]));
      const gasCharge = moves[4];
      expect(moves).toHaveLength(5);
      expect(gasCharge?.to).toBe(network.gasTreasury);
      // amountToken is exactly what left for the recipients; gasActual is the paymaster's charge (6 dp, rounded up).
      expect(expected.reduce((sum, [, v]) => sum + v, 0n)).toBe(tokenUnits(p.amountToken, decimals));
      expect(tokenUnits(p.gasActual, decimals) - (gasCharge?.value ?? 0n)).toBeGreaterThanOrEqual(0n);
      expect(tokenUnits(p.gasActual, decimals) - (gasCharge?.value ?? 0n)).toBeLessThan(10n ** BigInt(decimals - 6));
      if (decimals === 6) expect(tokenUnits(p.gasActual, 6)).toBe(gasCharge?.value);

      const after = await Promise.all(watched.map((a) => getTokenBalance(network, chainId, token, a)));
      expect(after.map((b, i) => b - (before[i] as bigint))).toEqual([...expected.map(([, v]) => v), gasCharge?.value]);
      expect(customerBefore - (await getTokenBalance(network, chainId, token, prepared.sender))).toBe(
        tokenUnits(p.amountToken, decimals) + (gasCharge?.value ?? 0n),
      );

      // The ledger records the real transfers of that transaction.
      const ledger = (await h.request('GET', '/v1/transactions?limit=100')).body.data.find(
        (t: { paymentId: string }) => t.paymentId === id,
      );
      expect(ledger).toMatchObject({
        chainId,
        token,
        txHash: p.txHash,
        amountToken: p.amountToken,
        gasActual: p.gasActual,
        exchangeRate: '1.080000',
      });
      expect(ledger.transfers).toEqual([
        { role: 'merchant', address: h.sim.defaultMerchant.walletAddress, amountToken: p.merchantFeeToken },
        ...sellers.map((s, i) => ({ role: 'seller', address: s.address, amountToken: sellerTokens[i] })),
        { role: 'service', address: network.feeCollector, amountToken: p.serviceFeeToken },
      ]);
    },
  );

  it('splits to five sellers in one transaction: one hash, 7 payment Transfers and 1 gas Transfer', async () => {
    const sellers = Array.from({ length: 5 }, (_, i) => ({ address: freshSeller(), amount: `${10 + i}.0${i}` }));
    const created = await h.createPayment({ amount: '100', currency: 'USD', sellers });
    const id = created.body.id as string;
    const { prepared } = await h.pay(id, { chainId: 42161, token: 'USDT' });
    const p = (await h.settled(id)).body;
    expect(p.status).toBe('SUCCESSFUL');
    const receipt = await network.chain(42161).publicClient.getTransactionReceipt({ hash: p.txHash });
    const moves = tokenTransfers(receipt.logs, network.tokenAddress(42161, 'USDT'));
    expect(moves).toHaveLength(8);
    expect(moves.every((m) => isAddressEqual(m.from, prepared.sender))).toBe(true);
    expect(moves.slice(1, 6).map((m) => m.to.toLowerCase())).toEqual(sellers.map((s) => s.address));
    expect(moves[7]?.to).toBe(network.gasTreasury);
    const ledger = (await h.request('GET', '/v1/transactions?limit=100')).body.data.filter(
      (t: { txHash: string }) => t.txHash === p.txHash,
    );
    expect(ledger).toHaveLength(1);
    expect(ledger[0].transfers.map((t: { role: string }) => t.role)).toEqual([
      'merchant',
      'seller',
      'seller',
      'seller',
      'seller',
      'seller',
      'service',
    ]);
    expect(ledger[0].transfers.map((t: { amountToken: string }) => t.amountToken)).toEqual(
      moves.slice(0, 7).map((m) => (Number(m.value) / 1e6).toFixed(6)),
    );
  });

  it("a revert on chain makes the payment FAILED with the chain's error; nobody is paid and no gas is charged", async () => {
    const created = await h.createPayment({ amount: '20', currency: 'USD' });
    const id = created.body.id as string;
    const { checkoutToken, ownerPrivateKey } = await h.checkout.signIn(id, { email: 'reverting@example.com' });
    const prepared = await h.checkout.prepare(checkoutToken, { chainId: 8453, token: 'USDC' });
    // Circle blacklists the merchant's wallet between prepare and submit: the transfer will revert.
    const handle = network.chain(8453);
    const usdc = network.tokenAddress(8453, 'USDC');
    const merchant = h.sim.defaultMerchant.walletAddress as Address;
    await sendTransaction(handle.publicClient, handle.operator, {
      to: usdc,
      data: encodeFunctionData({ abi: BLACKLIST, functionName: 'blacklist', args: [merchant] }),
      purpose: 'blacklist',
    });
    try {
      const customerBefore = await getTokenBalance(network, 8453, 'USDC', prepared.sender);
      const merchantBefore = await getTokenBalance(network, 8453, 'USDC', merchant);
      const signature = await signUserOpHash(ownerPrivateKey, prepared.userOpHash);
      const reply = await h.rpc(
        8453,
        'eth_sendUserOperation',
        [{ ...prepared.userOperation, signature }, prepared.entryPoint],
        checkoutToken,
      );
      expect(reply.body.result).toBe(prepared.userOpHash);
      const p = (await h.settled(id)).body;
      expect(p).toMatchObject({
        status: 'FAILED',
        txHash: null,
        paidAt: null,
        gasActual: null,
        chainId: 8453,
        token: 'USDC',
        amountToken: '20.000000',
      });
      expect(p.error).toEqual({ code: 'TRANSACTION_REVERTED', source: 'chain', message: expect.stringContaining('blacklisted') });
      expect(h.webhooks.emitted.filter((e) => e.paymentId === id).map((e) => e.type)).toEqual(['payment.processing', 'payment.failed']);
      expect(await getTokenBalance(network, 8453, 'USDC', prepared.sender)).toBe(customerBefore);
      expect(await getTokenBalance(network, 8453, 'USDC', merchant)).toBe(merchantBefore);
      const receipt = await h.rpc(8453, 'eth_getUserOperationReceipt', [prepared.userOpHash], checkoutToken);
      expect(receipt.body.result).toMatchObject({ success: false, reason: expect.stringContaining('blacklisted') });
      // While the wallet stays blacklisted, preparing another payment to it is refused up front (409, not a 5xx).
      const next = (await h.createPayment({ amount: '5', currency: 'USD' })).body.id as string;
      const session = await h.checkout.signIn(next, { email: 'reverting@example.com' });
      const refused = await h.checkout.prepare(session.checkoutToken, { chainId: 8453, token: 'USDC' }).catch((e: unknown) => e);
      expect(refused).toBeInstanceOf(Conflict);
      expect(refused).toMatchObject({
        message: expect.stringMatching(/^The payment cannot be made on Base with USDC right now: .*blacklisted/),
      });
      expect((await h.request('GET', `/v1/payments/${next}`)).body.status).toBe('ACTIVE');
    } finally {
      await sendTransaction(handle.publicClient, handle.operator, {
        to: usdc,
        data: encodeFunctionData({ abi: BLACKLIST, functionName: 'unBlacklist', args: [merchant] }),
        purpose: 'unBlacklist',
      });
    }
  });

  it("a funding transaction the chain refuses is answered 409 with the chain's reason, not an unhandled error", async () => {
    const id = (await h.createPayment({ amount: '5', currency: 'USD' })).body.id as string;
    const { checkoutToken, ownerAddress } = await h.checkout.signIn(id, { email: 'unfundable@example.com' });
    // Circle blacklists the customer's smart account before the page funds it: the faucet's mint reverts.
    const handle = network.chain(8453);
    const usdc = network.tokenAddress(8453, 'USDC');
    const account = (await smartAccountOf(network, { chainId: 8453, ownerAddress })).address;
    const blacklist = (functionName: 'blacklist' | 'unBlacklist') =>
      sendTransaction(handle.publicClient, handle.operator, {
        to: usdc,
        data: encodeFunctionData({ abi: BLACKLIST, functionName, args: [account] }),
        purpose: functionName,
      });
    await blacklist('blacklist');
    try {
      const refused = await h.checkout.prepare(checkoutToken, { chainId: 8453, token: 'USDC' }).catch((e: unknown) => e);
      expect(refused).toBeInstanceOf(Conflict);
      expect(refused).toMatchObject({ message: expect.stringMatching(/^The payment cannot be made on Base with USDC right now: /) });
      expect((await h.request('GET', `/v1/payments/${id}`)).body.status).toBe('ACTIVE');
    } finally {
      await blacklist('unBlacklist');
    }
  });
});

describe('PROCESSING between acceptance and the receipt', () => {
  it('holds the locked rate and token amounts while the operation waits in the mempool', async () => {
    const h = createChainHarness(network, { bundleDelayMs: 400 });
    try {
      const id = (await h.createPayment({ amount: '10', currency: 'USD' })).body.id as string;
      const { prepared } = await h.pay(id, { chainId: 137, token: 'USDC' });
      const processing = await h.request('GET', `/v1/payments/${id}`);
      expect(processing.body).toMatchObject({
        status: 'PROCESSING',
        chainId: 137,
        token: 'USDC',
        exchangeRate: '1.000000',
        amountToken: '10.000000',
        serviceFeeToken: '0.050000',
        merchantFeeToken: '9.950000',
        txHash: null,
        gasActual: null,
      });
      expect(h.webhooks.types()).toEqual(['payment.processing']);
      // Rates changing now do not touch the locked payment.
      await h.request('PUT', '/control/v1/exchange-rates', { body: { rates: { USD: '0.990000' } } });
      const receiptMeanwhile = await h.rpc(137, 'eth_getUserOperationReceipt', [prepared.userOpHash], TEST_API_KEY);
      expect(receiptMeanwhile.body.result).toBeNull();
      const done = await h.settled(id);
      expect(done.body).toMatchObject({ status: 'SUCCESSFUL', exchangeRate: '1.000000', amountToken: '10.000000' });
    } finally {
      await h.sim.close();
    }
  });
});

describe('webhooks through the real webhook service', () => {
  it('delivers payment.processing and payment.completed, signed, to a local receiver', async () => {
    const clock = new VirtualClock({ wallNow: () => 0, offsetMs: TEST_START });
    const sim = createSimulator({ chainNetwork: network, bundleDelayMs: 0, clock, defaultApiKey: TEST_API_KEY, logger: quiet });
    const receiver = await startReceiver(() => clock.now());
    try {
      const call = async (method: string, path: string, body?: unknown) => {
        const res = await sim.app.request(path, {
          method,
          headers: { authorization: `Bearer ${TEST_API_KEY}`, 'content-type': 'application/json' },
          ...(body ? { body: JSON.stringify(body) } : {}),
        });
        return (await res.json()) as Record<string, any>;
      };
      const endpoint = await call('POST', '/v1/webhooks', { url: `${receiver.url}/hooks` });
      const payment = await call('POST', '/v1/payments', { amount: '15', currency: 'GBP', externalId: 'hooked' });
      const checkout = sim.checkout!;
      const { checkoutToken, ownerPrivateKey } = await checkout.signIn(payment.id, { email: 'hooked@example.com' });
      const prepared = await checkout.prepare(checkoutToken, { chainId: 1, token: 'USDC' });
      const signature = await signUserOpHash(ownerPrivateKey, prepared.userOpHash);
      const res = await sim.app.request('/v1/web3/1', {
        method: 'POST',
        headers: { authorization: `Bearer ${checkoutToken}`, 'content-type': 'application/json' },
        body: JSON.stringify({
          jsonrpc: '2.0',
          id: 7,
          method: 'eth_sendUserOperation',
          params: [{ ...prepared.userOperation, signature }, prepared.entryPoint],
        }),
      });
      expect(await res.json()).toEqual({ jsonrpc: '2.0', id: 7, result: prepared.userOpHash });
      const deadline = Date.now() + 15_000;
      while (receiver.requests.length < 2 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 10));
      const events = receiver.requests.map((r) => JSON.parse(r.rawBody));
      expect(events.map((e) => e.event).sort()).toEqual(['payment.completed', 'payment.processing']);
      expect(events.every((e) => e.data.paymentId === payment.id && e.data.externalId === 'hooked')).toBe(true);
      // Signed with the clock's wall time (here frozen at the epoch by the harness), not its virtual time.
      for (const r of receiver.requests)
        expect(
          verifyAsMerchant(
            r.headers['x-service-signature'] as string,
            r.rawBody,
            endpoint.secret as string,
            Math.floor(clock.wallTime() / 1000),
          ).ok,
        ).toBe(true);
      expect((await call('GET', `/v1/payments/${payment.id}`)).status).toBe('SUCCESSFUL');
    } finally {
      await sim.close();
      await receiver.close();
    }
  });
});
