// Test 3: a payment the merchant cancelled cannot be paid. A customer whose page is open sees it
// turn CANCELLED with every control disabled; a fresh load shows the same; and the page's
// endpoints refuse to sign in or prepare, even with a checkout token issued before the cancel.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { browserSkipReason } from './support/browser.ts';
import { saveScreenshot } from './support/screenshots.ts';
import type { Stack } from './support/stack.ts';
import { startStack } from './support/stack.ts';

describe('hosted payment page: a cancelled payment', () => {
  let stack: Stack | undefined;
  beforeAll(async () => {
    if (!browserSkipReason) stack = await startStack();
  });
  afterAll(async () => stack?.close());
  beforeEach(({ skip }) => {
    if (browserSkipReason) skip(browserSkipReason);
  });

  it('shows CANCELLED, disables every control and is refused by the server', async () => {
    const { api, merchant } = stack!;
    const created = await api('POST', '/v1/payments', { amount: '42', currency: 'GBP', title: 'Concert ticket' });
    const page = await stack!.newPage();
    await page.goto(created.paymentUrl);
    await page.getByLabel('Email').fill('cara@example.com');
    await page.getByRole('button', { name: 'Continue with email' }).click();
    await page.getByText('Signed in as cara@example.com').waitFor();
    await page.getByRole('radio', { name: /Polygon · USDC/ }).check();
    expect(await page.getByRole('button', { name: /^Pay / }).isEnabled()).toBe(true);
    // A checkout token issued while the payment was still ACTIVE.
    const session = await (await page.request.post(`${created.paymentUrl}/sign-in`, { data: { email: 'cara@example.com' } })).json();
    expect(session.checkoutToken).toMatch(/^ct_/);

    await api('DELETE', `/v1/payments/${created.id}`);
    // The open page notices on its own (it polls the state while waiting).
    await page.locator('#status-headline', { hasText: 'Payment cancelled' }).waitFor({ timeout: 15_000 });
    expect(await page.locator('#status-badge').textContent()).toBe('CANCELLED');
    expect(await page.getByRole('button', { name: /^Pay / }).isDisabled()).toBe(true);
    expect(await page.getByRole('radio', { name: /Polygon · USDC/ }).isDisabled()).toBe(true);
    await saveScreenshot(page, 'cancelled-payment-live');

    await page.reload();
    expect(await page.locator('#status-badge').textContent()).toBe('CANCELLED');
    expect(await page.locator('#status-detail').textContent()).toBe('The merchant cancelled this payment; it can no longer be paid.');
    expect(await page.getByLabel('Email').isDisabled()).toBe(true);
    expect(await page.getByRole('button', { name: 'Continue with email' }).isDisabled()).toBe(true);
    expect(await page.getByRole('button', { name: 'Connect browser wallet' }).isDisabled()).toBe(true);
    expect(await page.getByRole('button', { name: 'Pay' }).isDisabled()).toBe(true);
    expect(await page.locator('input[name="pair"]').count()).toBe(0);
    expect(await page.locator('#expiry').isHidden()).toBe(true);
    await saveScreenshot(page, 'cancelled-payment-reload');

    const signIn = await page.request.post(`${created.paymentUrl}/sign-in`, { data: { email: 'cara@example.com' } });
    expect(signIn.status()).toBe(409);
    const prepare = await page.request.post(`${created.paymentUrl}/prepare`, {
      data: { chainId: 137, token: 'USDC' },
      headers: { authorization: `Bearer ${session.checkoutToken}` },
    });
    expect(prepare.status()).toBe(409);
    expect((await prepare.json()).message).toBe('Payment is not ACTIVE (status: CANCELLED)');

    expect(await api('GET', `/v1/payments/${created.id}`)).toMatchObject({ status: 'CANCELLED', txHash: null, chainId: null });
    await merchant.waitFor('payment.cancelled', created.id);
  });
});
