// The customer pays the way real wallets do, proven on test checkout pages of the suite's own (test-pages/), each paid
// through the agent in Chromium on the suite's chains and verified from the receipt (every recipient's balance moved
// by exactly its share, the payer's by exactly the total): an ordinary transaction to a splitter, approve then pay,
// an EIP-2612 permit then pay, and an ERC-4337 user operation. Before them, eth_sendTransaction alone: the page's fee
// fields are honoured, missing ones are filled from the chain (EIP-1559, or legacy when asked), and the faucet funds.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createClient, erc20Abi, formatUnits, http, parseAbi, parseGwei, type Address, type Hex } from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { getBalance, getTransaction, getTransactionReceipt, readContract, sendTransaction } from 'viem/actions';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestChains, type TestChains } from '@stablepay/chains/start-test-chains';
import { CustomerAgent } from './agent.ts';
import { browserSkipReason } from './chromium.ts';
import { createFaucet, FAUCET_AMOUNTS, type CustomerFaucet } from './faucet.ts';
import { verifySettlement } from './on-chain.ts';
import { DEFAULT_PAGE_CONTRACT } from './page-contract.ts';
import { transactionsSigned } from '../support/pay-through-page.ts';
import { startCheckoutPages, type CheckoutPages } from './test-pages/checkout-pages.ts';
import type { Mechanism, TestCheckout } from './test-pages/checkout-steps.ts';
import { loadSplitterArtifact } from './test-pages/compile-splitter.ts';
import { sendPageTransaction } from './wallet-transaction.ts';

let chains: TestChains;
let faucet: CustomerFaucet;

const rpcOf = (chainId: number) => chains.file.chains.find((c) => c.chainId === chainId)!.rpcUrl;
const clientOf = (chainId: number) => createClient({ transport: http(rpcOf(chainId)) });
const tokenOf = (chainId: number, token: 'USDC' | 'USDT') => chains.file.chains.find((c) => c.chainId === chainId)!.tokens[token]!;
const balanceOf = (chainId: number, token: 'USDC' | 'USDT', address: Address, blockNumber: bigint) =>
  readContract(clientOf(chainId), {
    address: tokenOf(chainId, token).address,
    abi: erc20Abi,
    functionName: 'balanceOf',
    args: [address],
    blockNumber,
  });

async function setBalance(chainId: number, address: Address, wei: bigint): Promise<void> {
  await fetch(rpcOf(chainId), {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'anvil_setBalance', params: [address, `0x${wei.toString(16)}`] }),
  });
}

/** The receipt once mined (the chains automine, but the node may answer before it has the receipt). */
async function receiptOf(chainId: number, hash: Hex) {
  for (let attempt = 0; ; attempt++) {
    const receipt = await getTransactionReceipt(clientOf(chainId), { hash }).catch(() => null);
    if (receipt || attempt > 400) return receipt!;
    await new Promise((r) => setTimeout(r, 25));
  }
}

beforeAll(async () => {
  chains = await startTestChains({ filePath: join(mkdtempSync(join(tmpdir(), 'stablepay-mechanisms-')), 'chains.json') });
  faucet = createFaucet(chains.file);
}, 120_000);
afterAll(async () => chains?.stop());

describe('the customer wallet: eth_sendTransaction as MetaMask answers it', () => {
  const send = async (tx: Record<string, string>) => {
    const account = privateKeyToAccount(generatePrivateKey());
    await faucet.fund(1, account.address);
    const sent = await sendPageTransaction({
      account,
      rpcUrl: rpcOf(1),
      chainId: 1,
      tx: { from: account.address, to: account.address, value: '0x1', ...tx },
    });
    return { sent, onChain: await getTransaction(clientOf(1), { hash: sent.hash }) };
  };

  it('is funded by the faucet: native coin for gas and every token of the chain', async () => {
    const account = privateKeyToAccount(generatePrivateKey()).address;
    const summary = await faucet.fund(1, account);
    expect(summary).toBe(`10 ETH, ${FAUCET_AMOUNTS.tokens} USDC, ${FAUCET_AMOUNTS.tokens} USDT`);
    expect(await getBalance(clientOf(1), { address: account })).toBe(FAUCET_AMOUNTS.nativeWei);
    for (const token of ['USDC', 'USDT'] as const) {
      const balance = await readContract(clientOf(1), {
        address: tokenOf(1, token).address,
        abi: erc20Abi,
        functionName: 'balanceOf',
        args: [account],
      });
      expect(formatUnits(balance, tokenOf(1, token).decimals)).toBe(String(FAUCET_AMOUNTS.tokens));
    }
  });

  it('honours the fees the page gives: EIP-1559 maxFeePerGas and maxPriorityFeePerGas, or a legacy gasPrice', async () => {
    const eip1559 = await send({ maxFeePerGas: '0x77359400', maxPriorityFeePerGas: '0x3b9aca00' });
    expect(eip1559.onChain).toMatchObject({ type: 'eip1559', maxFeePerGas: parseGwei('2'), maxPriorityFeePerGas: parseGwei('1') });
    expect(eip1559.sent.summary).toMatch(/eip1559, maxFeePerGas 2 gwei \(page\), maxPriorityFeePerGas 1 gwei \(page\)/);
    const legacy = await send({ gasPrice: '0xb2d05e00' });
    expect(legacy.onChain).toMatchObject({ type: 'legacy', gasPrice: parseGwei('3') });
  });

  it('fills what the page leaves out from the chain, as MetaMask does (a tip above a given cap is lowered to it)', async () => {
    // The chains run with base fee 0 and answer eth_maxPriorityFeePerGas with 1 gwei.
    const filled = await send({});
    expect(filled.onChain).toMatchObject({ type: 'eip1559', maxFeePerGas: parseGwei('1'), maxPriorityFeePerGas: parseGwei('1') });
    expect(filled.sent.summary).toMatch(/chain: 2 x base fee 0 gwei \+ tip/);
    // The report of issue 23: a page passing maxFeePerGas 0 (what eth_gasPrice says here) must not be refused.
    const capped = await send({ maxFeePerGas: '0x0' });
    expect(capped.onChain).toMatchObject({ type: 'eip1559', maxFeePerGas: 0n, maxPriorityFeePerGas: 0n });
    const legacy = await send({ type: '0x0' });
    expect(legacy.onChain).toMatchObject({ type: 'legacy', gasPrice: 0n });
    const gas = await send({ gas: '0x7530' });
    expect(gas.onChain.gas).toBe(30_000n);
  });

  it('refuses what MetaMask refuses: another chain, a tip above the cap', async () => {
    await expect(send({ chainId: '0x89' })).rejects.toThrow(/Invalid chainId 0x89: the wallet is on chain 1/);
    await expect(send({ maxFeePerGas: '0x1', maxPriorityFeePerGas: '0x2' })).rejects.toThrow(
      /maxPriorityFeePerGas \(0\.000000002 gwei\) is higher than maxFeePerGas/,
    );
  });
});

describe.skipIf(browserSkipReason !== undefined)(
  "the customer pays test checkout pages of the suite's own, verified from the receipt",
  () => {
    let pages: CheckoutPages;
    let agent: CustomerAgent;
    let splitter: Address;
    const service = privateKeyToAccount(generatePrivateKey());

    beforeAll(async () => {
      // One deployer key, nonce 0 on every chain: the splitter has one address everywhere.
      const deployer = privateKeyToAccount(generatePrivateKey());
      const artifact = loadSplitterArtifact();
      for (const chain of chains.file.chains) {
        await setBalance(chain.chainId, deployer.address, 10n ** 18n);
        await setBalance(chain.chainId, service.address, 10n ** 20n);
        const hash = await sendTransaction(clientOf(chain.chainId), {
          account: deployer,
          chain: null,
          data: artifact.bytecode,
          gasPrice: 0n,
          type: 'legacy',
        } as never);
        const receipt = await receiptOf(chain.chainId, hash);
        splitter = receipt.contractAddress!;
      }
      await faucet.fund(137, service.address);
      pages = await startCheckoutPages({ chains: chains.file, splitter, service });
      agent = new CustomerAgent({
        contract: DEFAULT_PAGE_CONTRACT,
        chains: chains.file,
        parallel: 1,
        screenshotDir: mkdtempSync(join(tmpdir(), 'stablepay-mechanisms-shots-')),
        faucet,
        launch: async () => (await import('./chromium.ts')).launchChromium({ multiProcess: true }),
      });
    }, 120_000);
    afterAll(async () => {
      await agent?.close();
      await pages?.close();
    });

    /** Pays the checkout through the agent; returns the settlement's block and what the wallet did. */
    async function pay(mechanism: Mechanism, chainId: number, token: 'USDC' | 'USDT', fees?: TestCheckout['fees']) {
      const { decimals } = tokenOf(chainId, token);
      const recipients = [
        {
          role: 'merchant' as const,
          address: privateKeyToAccount(generatePrivateKey()).address,
          units: 99n * 10n ** BigInt(decimals - 2) + 1n,
        },
        { role: 'seller' as const, address: privateKeyToAccount(generatePrivateKey()).address, units: 25n * 10n ** BigInt(decimals - 1) },
        { role: 'service' as const, address: privateKeyToAccount(generatePrivateKey()).address, units: 5n * 10n ** BigInt(decimals - 3) },
      ];
      const url = pages.add({ mechanism, chainId, token, recipients, ...(fees ? { fees } : {}) });
      const result = await agent.pay(url, `mechanism-${mechanism}`, { chainId, token });
      const record = pages.record(url)!;
      expect(result.end?.state, `${mechanism}: ${result.endError?.message ?? ''}\n${JSON.stringify(result.wallet.log, null, 1)}`).toBe(
        'successful',
      );
      expect(result.pageText).toContain(record.settlement!);
      const check = await verifySettlement(chains.file, {
        chainId,
        token,
        txHash: record.settlement!,
        recipients: recipients.map((r) => ({ role: r.role, address: r.address, amountToken: formatUnits(r.units, decimals) })),
      });
      expect(check.problems).toEqual([]);
      expect(check.observed.map((o) => o.delta)).toEqual(recipients.map((r) => r.units));
      const total = recipients.reduce((sum, r) => sum + r.units, 0n);
      return { result, record, total, block: check.blockNumber!, payer: result.wallet.address as Address };
    }

    it("an ordinary transaction to the splitter (BSC USDT, 18 decimals, the page's legacy gasPrice), split by the service", async () => {
      const { result, record, total, payer } = await pay('transaction', 56, 'USDT', { gasPrice: parseGwei('3') });
      expect(transactionsSigned(result).map((e) => e.method)).toEqual(['eth_sendTransaction']);
      expect(result.wallet.log.find((e) => e.method === 'eth_sendTransaction')!.detail).toMatch(/legacy, gasPrice 3 gwei \(page\)/);
      // The customer's transaction moved exactly the total into the splitter; the split left nothing there.
      const moved = await receiptOf(56, record.customerTransactions[0]!);
      const [before, after] = await Promise.all([
        balanceOf(56, 'USDT', payer, moved.blockNumber - 1n),
        balanceOf(56, 'USDT', payer, moved.blockNumber),
      ]);
      expect(before - after).toBe(total);
      expect(await balanceOf(56, 'USDT', splitter, (await receiptOf(56, record.settlement!)).blockNumber)).toBe(0n);
    }, 120_000);

    it('approve then pay (Ethereum USDT: no return values), fees filled from the chain', async () => {
      const { result, record, total, payer, block } = await pay('approve-then-pay', 1, 'USDT');
      expect(transactionsSigned(result).map((e) => e.method)).toEqual(['eth_sendTransaction', 'eth_sendTransaction']);
      expect(
        result.wallet.log
          .filter((e) => e.method === 'eth_sendTransaction')
          .every((e) => /eip1559, maxFeePerGas 1 gwei \(chain/.test(e.detail)),
      ).toBe(true);
      expect(record.customerTransactions).toHaveLength(2);
      expect((await balanceOf(1, 'USDT', payer, block - 1n)) - (await balanceOf(1, 'USDT', payer, block))).toBe(total);
    }, 120_000);

    it("an EIP-2612 permit (eth_signTypedData_v4) then pay (Base USDC, FiatTokenV2_2), the page's EIP-1559 fees", async () => {
      const { result, total, payer, block } = await pay('permit-then-pay', 8453, 'USDC', {
        maxFeePerGas: parseGwei('2'),
        maxPriorityFeePerGas: parseGwei('1'),
      });
      expect(result.wallet.log.filter((e) => e.kind).map((e) => `${e.method}:${e.kind}`)).toEqual([
        'eth_signTypedData_v4:permit',
        'eth_sendTransaction:transaction',
      ]);
      expect(transactionsSigned(result)).toHaveLength(1);
      expect(result.wallet.log.find((e) => e.method === 'eth_sendTransaction')!.detail).toMatch(
        /eip1559, maxFeePerGas 2 gwei \(page\), maxPriorityFeePerGas 1 gwei \(page\)/,
      );
      expect((await balanceOf(8453, 'USDC', payer, block - 1n)) - (await balanceOf(8453, 'USDC', payer, block))).toBe(total);
      const nonces = parseAbi(['function nonces(address) view returns (uint256)']);
      expect(
        await readContract(clientOf(8453), { address: tokenOf(8453, 'USDC').address, abi: nonces, functionName: 'nonces', args: [payer] }),
      ).toBe(1n);
    }, 120_000);

    it('an ERC-4337 user operation (Polygon USDC): the wallet signs its hash, the smart account pays in one transaction', async () => {
      const { result, record, total, block } = await pay('user-operation', 137, 'USDC');
      expect(result.wallet.log.filter((e) => e.kind).map((e) => `${e.method}:${e.kind}`)).toEqual(['personal_sign:user-operation']);
      const account = record.smartAccount!;
      expect((await balanceOf(137, 'USDC', account, block - 1n)) - (await balanceOf(137, 'USDC', account, block))).toBe(total);
    }, 120_000);
  },
);
