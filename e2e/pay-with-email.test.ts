// Test 1: a customer opens the payment link, signs in with an e-mail (embedded wallet), picks
// Base/USDC, signs one user operation in the browser and sees the payment complete; the merchant
// API says SUCCESSFUL, the webhook receiver got payment.completed, and the page returns the
// customer to the merchant's redirect URL.
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { saveScreenshot } from './support/screenshots.ts';
import { useStack } from './support/stack.ts';

const focusedId = (page: Page) => page.evaluate(() => document.activeElement?.id);
const focusedValue = (page: Page) => page.evaluate(() => (document.activeElement as HTMLInputElement | null)?.value);

describe('hosted payment page: e-mail sign-in, Base/USDC', () => {
  const stack = useStack();

  it('pays, shows the tx hash, settles in the API and the webhook, then redirects', async () => {
    const { api, merchant, server } = stack();
    // The merchant's dashboard setting "redirect after payment", set through the control API.
    const settings = await api('PUT', '/control/v1/merchant', { redirectUrl: `${merchant.thanksUrl}?order=1042` });
    expect(settings.redirectUrl).toBe(`${merchant.thanksUrl}?order=1042`);
    const created = await api('POST', '/v1/payments', {
      amount: '25.50',
      currency: 'USD',
      title: 'Order #1042: 2 bags of coffee beans',
      externalId: 'e2e-email-1042',
    });
    expect(created.paymentUrl).toBe(`${server.payUrl}/p/${created.id}`);

    const page = await stack().newPage();
    await page.goto(created.paymentUrl);
    await expect.poll(() => page.locator('#payment-title').textContent()).toBe('Order #1042: 2 bags of coffee beans');
    expect(await page.locator('#status-badge').textContent()).toBe('ACTIVE');
    expect(await page.locator('#countdown').textContent()).toMatch(/^(59|60):\d\d$|^1:00:00$/);
    await saveScreenshot(page, 'pay-with-email-1-open');

    // Keyboard only, in focus order: e-mail, Enter; focus lands on step 2; arrows pick; Tab to Pay.
    await page.getByLabel('Email').focus();
    await page.keyboard.type('ann@example.com');
    await page.keyboard.press('Enter');
    await page.getByText('Signed in as ann@example.com').waitFor();
    expect(await focusedId(page)).toBe('step-pair');

    // Only the pairs the checkout offers; the default payment accepts every pair of the chain table.
    const pairNames = await page.locator('.pair-name').allTextContents();
    expect(pairNames).toContain('Base · USDC');
    expect(pairNames).not.toContain('Base · USDT');
    await page.keyboard.press('Tab');
    await page.keyboard.press('Space');
    for (let i = 0; i < pairNames.length && (await focusedValue(page)) !== '8453:USDC'; i += 1) await page.keyboard.press('ArrowDown');
    expect(await page.getByRole('radio', { name: /Base · USDC/ }).isChecked()).toBe(true);
    expect(await page.locator('#quote-amount').textContent()).toBe('25.500000 USDC');
    expect(await page.locator('#quote-gas').textContent()).toMatch(/^≈ \d+\.\d{6} USDC$/);
    await page.keyboard.press('Tab');
    expect(await focusedId(page)).toBe('pay-button');
    await saveScreenshot(page, 'pay-with-email-2-picked');

    expect(await page.locator('#pay-button').textContent()).toBe('Pay 25.500000 USDC on Base');
    await page.keyboard.press('Enter');
    await page.locator('#status-headline', { hasText: 'Payment complete' }).waitFor({ timeout: 45_000 });
    const txHash = await page.locator('#tx-hash').textContent();
    expect(txHash).toMatch(/^0x[0-9a-f]{64}$/);
    expect(await page.locator('#status-badge').textContent()).toBe('SUCCESSFUL');
    expect(await page.locator('#email').isDisabled()).toBe(true);
    await saveScreenshot(page, 'pay-with-email-3-success');

    const payment = await api('GET', `/v1/payments/${created.id}`);
    expect(payment).toMatchObject({ status: 'SUCCESSFUL', chainId: 8453, token: 'USDC', amountToken: '25.500000', txHash });
    const completed = await merchant.waitFor('payment.completed', created.id);
    expect(completed.signatureValid).toBe(true);
    expect(completed.body.data).toEqual({ paymentId: created.id, externalId: 'e2e-email-1042' });
    expect(merchant.received.filter((r) => r.paymentId === created.id).map((r) => r.event)).toEqual([
      'payment.processing',
      'payment.completed',
    ]);

    // One transaction on chain, and it succeeded.
    const receipt = await api('POST', '/v1/web3/8453', { jsonrpc: '2.0', id: 1, method: 'eth_getTransactionReceipt', params: [txHash] });
    expect(receipt.result).toMatchObject({ transactionHash: txHash, status: '0x1' });

    await page.waitForURL(`${merchant.thanksUrl}?order=1042`, { timeout: 10_000 });
    expect(await page.locator('h1').textContent()).toBe('Thank you for your order');
  });
});
