// Test 2: a marketplace payment split across three sellers, paid on Polygon/USDT from an injected
// EIP-1193 wallet: the conformance suite's customer wallet (conformance/customer/wallet.ts), answered by a viem local
// account in the test process.
// The wallet is asked for one signature; the one transaction pays every seller their share.
import { encodeFunctionData, erc20Abi, formatUnits, type Hex } from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { describe, expect, it } from 'vitest';
import { installWallet } from '../conformance/customer/wallet.ts';
import { saveScreenshot } from './support/screenshots.ts';
import { useStack } from './support/stack.ts';

const POLYGON_USDT = '0xc2132D05D31c914a87C6611C10748AEb04B58e8F';

describe('hosted payment page: wallet connect, 3-seller split on Polygon/USDT', () => {
  const stack = useStack();

  it('signs one user operation with the injected wallet and pays all three sellers in one transaction', async () => {
    const { api, merchant } = stack();
    const sellers = [
      { address: privateKeyToAccount(generatePrivateKey()).address, amount: '100' },
      { address: privateKeyToAccount(generatePrivateKey()).address, amount: '80' },
      { address: privateKeyToAccount(generatePrivateKey()).address, amount: '50.25' },
    ];
    const created = await api('POST', '/v1/payments', { amount: '300', currency: 'EUR', title: 'Marketplace basket (3 sellers)', sellers });

    const page = await stack().newPage();
    // The page only asks for accounts and one signature: the wallet needs no chain of its own here.
    const wallet = await installWallet(page.context(), { privateKey: generatePrivateKey(), rpcUrls: new Map(), startChainId: 137 });
    await page.goto(created.paymentUrl);
    const walletButton = page.getByRole('button', { name: 'Connect browser wallet' });
    await expect.poll(() => walletButton.isEnabled()).toBe(true);
    expect(await page.locator('#wallet-help').textContent()).toBe('Signs with the Ethereum wallet in your browser.');
    await walletButton.click();
    await page.getByText('Connected browser wallet').waitFor();

    await page.getByRole('radio', { name: /Polygon · USDT/ }).check();
    const pay = page.getByRole('button', { name: /^Pay \d+\.\d{6} USDT on Polygon$/ });
    await pay.click();
    await page.locator('#status-headline', { hasText: 'Payment complete' }).waitFor({ timeout: 45_000 });
    const txHash = (await page.locator('#tx-hash').textContent()) as Hex;
    await saveScreenshot(page, 'split-wallet-connect-success');

    // The EIP-1193 path: accounts requested, exactly one personal_sign, of a 32-byte user operation hash.
    expect(wallet.log.map((e) => e.method)).toContain('eth_requestAccounts');
    expect(wallet.signed).toHaveLength(1);
    expect(wallet.signed[0]).toMatchObject({ method: 'personal_sign', kind: 'user-operation' });
    expect(wallet.signed[0]!.payload).toMatch(/^0x[0-9a-f]{64}$/);

    const payment = await api('GET', `/v1/payments/${created.id}`);
    expect(payment).toMatchObject({ status: 'SUCCESSFUL', chainId: 137, token: 'USDT', txHash });
    await merchant.waitFor('payment.completed', created.id);

    // The ledger records one settlement with every recipient, and the chain agrees seller by seller.
    const ledger = await api('GET', '/v1/transactions?limit=100');
    const record = ledger.data.find((t: { paymentId: string }) => t.paymentId === created.id);
    expect(record).toMatchObject({ txHash, chainId: 137, token: 'USDT' });
    const sellerTransfers = record.transfers.filter((t: { role: string }) => t.role === 'seller');
    expect(sellerTransfers.map((t: { address: string }) => t.address.toLowerCase())).toEqual(sellers.map((s) => s.address.toLowerCase()));
    expect(record.transfers.map((t: { role: string }) => t.role).sort()).toEqual(['merchant', 'seller', 'seller', 'seller', 'service']);
    for (const transfer of sellerTransfers as { address: Hex; amountToken: string }[]) {
      const data = encodeFunctionData({ abi: erc20Abi, functionName: 'balanceOf', args: [transfer.address] });
      const reply = await api('POST', '/v1/web3/137', {
        jsonrpc: '2.0',
        id: 1,
        method: 'eth_call',
        params: [{ to: POLYGON_USDT, data }, 'latest'],
      });
      expect(Number(formatUnits(BigInt(reply.result), 6))).toBeCloseTo(Number(transfer.amountToken), 6);
      expect(Number(transfer.amountToken)).toBeGreaterThan(0);
    }
  });
});
