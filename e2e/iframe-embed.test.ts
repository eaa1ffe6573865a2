// Test 4: the merchant embeds the payment page in an iframe on its own site (another origin). The
// page is allowed to be framed (CSP frame-ancestors *, no X-Frame-Options), its script runs
// inside the frame, and the customer can sign in and pay without leaving the shop.
import { describe, expect, it } from 'vitest';
import { saveScreenshot } from './support/screenshots.ts';
import { useStack } from './support/stack.ts';

describe('hosted payment page inside an iframe', () => {
  const stack = useStack();

  it('loads, runs and takes a payment while embedded in the merchant shop', async () => {
    const { api, merchant } = stack();
    const created = await api('POST', '/v1/payments', {
      amount: '1500',
      currency: 'JPY',
      title: 'Matcha tin',
      acceptedChains: [42161, 137],
      acceptedTokens: ['USDC'],
    });
    const page = await stack().newPage();
    const documentResponse = page.waitForResponse((r) => r.url() === created.paymentUrl);
    await page.goto(merchant.embedUrl(created.paymentUrl));
    const headers = (await documentResponse).headers();
    expect(headers['x-frame-options']).toBeUndefined();
    expect(headers['content-security-policy']).toContain('frame-ancestors *');

    const frame = page.frameLocator('iframe[title="Pay with stablecoins"]');
    await expect.poll(() => frame.locator('#payment-title').textContent()).toBe('Matcha tin');
    expect(await frame.locator('#fiat-amount').textContent()).toBe('1500');
    // The script ran inside the frame: it looked for a wallet and said there is none.
    await expect.poll(() => frame.locator('#wallet-help').textContent()).toContain('No browser wallet was found');
    expect(await frame.locator('.pair-name').allTextContents()).toEqual(['Arbitrum One · USDC', 'Polygon · USDC']);

    await frame.getByLabel('Email').fill('dai@example.com');
    await frame.getByRole('button', { name: 'Continue with email' }).click();
    await frame.getByText('Signed in as dai@example.com').waitFor();
    await frame.getByRole('radio', { name: /Arbitrum One · USDC/ }).check();
    await saveScreenshot(page, 'iframe-embed-ready');
    await frame.getByRole('button', { name: /^Pay .* on Arbitrum One$/ }).click();
    await frame.locator('#status-headline', { hasText: 'Payment complete' }).waitFor({ timeout: 45_000 });
    await saveScreenshot(page, 'iframe-embed-paid');
    expect(page.url()).toBe(merchant.embedUrl(created.paymentUrl));
    expect(await api('GET', `/v1/payments/${created.id}`)).toMatchObject({ status: 'SUCCESSFUL', chainId: 42161, token: 'USDC' });
  });
});
