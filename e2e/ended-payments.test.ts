// Test 3 and its siblings: payments that end without the page paying them. A cancelled payment
// cannot be paid: a customer whose page is open sees it turn CANCELLED with every control
// disabled, a fresh load shows the same, and the page's endpoints refuse to sign in or prepare,
// even with a checkout token issued before the cancel. A failed payment shows its reason, and an
// expired one says so once the virtual clock passes expiresAt.
import { describe, expect, it } from 'vitest';
import { saveScreenshot } from './support/screenshots.ts';
import { useStack } from './support/stack.ts';

describe('hosted payment page: payments that end unpaid', () => {
  const stack = useStack();

  it('shows CANCELLED, disables every control and is refused by the server', async () => {
    const { api, merchant } = stack();
    const created = await api('POST', '/v1/payments', { amount: '42', currency: 'GBP', title: 'Concert ticket' });
    const page = await stack().newPage();
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
    await saveScreenshot(page, 'ended-cancelled-live');

    await page.reload();
    expect(await page.locator('#status-badge').textContent()).toBe('CANCELLED');
    expect(await page.locator('#status-detail').textContent()).toBe('The merchant cancelled this payment; it can no longer be paid.');
    expect(await page.getByLabel('Email').isDisabled()).toBe(true);
    expect(await page.getByRole('button', { name: 'Continue with email' }).isDisabled()).toBe(true);
    expect(await page.getByRole('button', { name: 'Connect browser wallet' }).isDisabled()).toBe(true);
    expect(await page.getByRole('button', { name: 'Pay' }).isDisabled()).toBe(true);
    expect(await page.locator('input[name="pair"]').count()).toBe(0);
    expect(await page.locator('#expiry').isHidden()).toBe(true);
    await saveScreenshot(page, 'ended-cancelled-reload');

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

  it('follows a payment that another path submitted and that then failed, and shows the reason', async () => {
    const { api, server } = stack();
    const control = (path: string, body: unknown) =>
      fetch(`${server.controlUrl}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
    const created = await api('POST', '/v1/payments', { amount: '15', currency: 'USD', title: 'Gift card' });
    const page = await stack().newPage();
    await page.goto(created.paymentUrl);
    await page.locator('#wallet-help', { hasText: 'No browser wallet' }).waitFor();

    // The control API plays a customer on another device: its user operation waits in the bundler.
    expect((await control(`/payments/${created.id}/submit`, { chainId: 8453, token: 'USDC' })).status).toBe(200);
    await page.locator('#status-headline', { hasText: 'Payment submitted' }).waitFor({ timeout: 15_000 });
    expect(await page.locator('#status-detail').textContent()).toBe('Waiting for confirmation on Base…');
    expect(await page.getByLabel('Email').isDisabled()).toBe(true);

    expect(
      (
        await control(`/payments/${created.id}/fail`, {
          source: 'bundler',
          code: 'USER_OPERATION_REJECTED',
          message: 'Paymaster refused the operation',
        })
      ).status,
    ).toBe(200);
    await page.locator('#status-headline', { hasText: 'Payment failed' }).waitFor({ timeout: 10_000 });
    expect(await page.locator('#status-detail').textContent()).toBe('Paymaster refused the operation (USER_OPERATION_REJECTED)');
    expect(await page.locator('#status-badge').textContent()).toBe('FAILED');
    await saveScreenshot(page, 'ended-failed');
    expect((await page.request.post(`${created.paymentUrl}/sign-in`, { data: { email: 'eve@example.com' } })).status()).toBe(409);
  });

  it('turns EXPIRED when the virtual clock passes expiresAt', async () => {
    const { api, server } = stack();
    const created = await api('POST', '/v1/payments', { amount: '20', currency: 'USD', title: 'Flash sale' });
    const page = await stack().newPage();
    await page.goto(created.paymentUrl);
    expect(await page.locator('#countdown').textContent()).toMatch(/^(59:\d\d|1:00:00)$/);
    const advance = await fetch(`${server.controlUrl}/clock/advance`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ ms: 3_600_000 }),
    });
    expect(advance.status).toBe(200);
    await page.locator('#status-headline', { hasText: 'Payment expired' }).waitFor({ timeout: 10_000 });
    expect(await page.locator('#expiry').isHidden()).toBe(true);
    expect(await page.getByLabel('Email').isDisabled()).toBe(true);
    await saveScreenshot(page, 'ended-expired');
    expect(await api('GET', `/v1/payments/${created.id}`)).toMatchObject({ status: 'EXPIRED' });
  });
});
