// One merchant's payments do not exist for another: GET and DELETE answer 404 (not 403, which would
// confirm the id), the list does not show them, and the foreign DELETE leaves the payment ACTIVE.
import type { CheckContext } from '../../context.ts';
import type { HttpClient } from '../../http/client.ts';
import { defineCheck } from '../../registry.ts';
import { acceptedAmount } from '../../support/amounts.ts';
import { createPayment, getPayment, uniqueExternalId, type Payment } from '../../support/payments.ts';
import type { Received } from '../../received.ts';
import { getList } from '../../support/lists.ts';

export const merchantIsolation = defineCheck({
  id: 'auth.merchant-isolation',
  title: "Another merchant's payment is 404 on GET and DELETE and absent from the list",
  requirements: ['ERR-404-PAYMENT-NOT-FOUND', 'PAY-CREATE-EXTERNAL-ID-UNIQUE-LIVE'],
  level: 'documented',
  needs: [],
  tags: ['security'],
  premises: ['list.item-key', 'payments.minimum-amounts'],
  async run(ctx: CheckContext) {
    const other = await otherMerchant(ctx);
    const externalId = uniqueExternalId('iso');
    const amount = await acceptedAmount(ctx, 'EUR', '42.00');
    const mine = await createPayment(ctx.api, { amount, currency: 'EUR', externalId });
    ctx.requireStatus(mine, 201, 'ERR-404-PAYMENT-NOT-FOUND', 'Setup: create a payment');
    const id = mine.payment.id;

    const get = await other.get(`/v1/payments/${id}`);
    ctx.expect(
      get.status === 404,
      'ERR-404-PAYMENT-NOT-FOUND',
      "GET of another merchant's payment is not 404",
      () => `answered ${get.status}: ${get.text.slice(0, 200)}`,
      get.exchange,
    );
    const del = await other.delete(`/v1/payments/${id}`);
    ctx.expect(
      del.status === 404,
      'ERR-404-PAYMENT-NOT-FOUND',
      "DELETE of another merchant's payment is not 404",
      () => `answered ${del.status}: ${del.text.slice(0, 200)}`,
      del.exchange,
    );
    const list = await getList<Received<Payment>>(ctx, other, '/v1/payments', { limit: 100 });
    const items = list.items ?? [];
    ctx.expect(
      !items.some((p) => p.id === id),
      'ERR-404-PAYMENT-NOT-FOUND',
      "The list shows another merchant's payment",
      `payment ${id} appears in the other merchant's list`,
      list.exchange,
    );
    // externalId uniqueness is per merchant: the same externalId is free for the other merchant.
    const same = await createPayment(other, { amount, currency: 'EUR', externalId });
    ctx.expect(
      same.status === 201,
      'PAY-CREATE-EXTERNAL-ID-UNIQUE-LIVE',
      'externalId uniqueness leaks across merchants',
      () => `another merchant reusing externalId ${externalId} got ${same.status}: ${same.text.slice(0, 200)}`,
      same.exchange,
    );
    const after = await getPayment(ctx.api, id);
    ctx.expect(
      after.payment?.status === 'ACTIVE',
      'ERR-404-PAYMENT-NOT-FOUND',
      "A foreign DELETE changed the owner's payment",
      () => `status after foreign DELETE: ${after.payment?.status}`,
      after.exchange,
    );
    ctx.addCases(5);
  },
});

/** A fresh merchant through the control API, or the one whose key the user gave (--second-api-key, black-box). */
async function otherMerchant(ctx: CheckContext): Promise<HttpClient> {
  if (ctx.services.control) return (await ctx.newMerchant('other')).api;
  const key = ctx.options.secondApiKey;
  if (!key) ctx.notExercised('no control API to create a second merchant and no --second-api-key');
  const other = ctx.api.withCredential({ key, label: 'STABLEPAY_SECOND_API_KEY' });
  const probe = await other.get('/v1/payments', { limit: 1 });
  ctx.require(
    probe.status === 200,
    'ERR-404-PAYMENT-NOT-FOUND',
    'Setup: the second merchant key is refused',
    () => `GET /v1/payments with --second-api-key answered ${probe.status}`,
    probe.exchange,
  );
  return other;
}
