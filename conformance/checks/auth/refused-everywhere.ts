// Shared by the auth checks: a refused credential gets 401 on every kind of operation, and a
// refused call changes nothing (the payment it targeted is still there and still ACTIVE).
import type { CheckContext } from '../../context.ts';
import type { Credential, HttpResponse } from '../../http/client.ts';
import { acceptedAmount } from '../../support/amounts.ts';
import { createPayment, getPayment } from '../../support/payments.ts';

/** Findings cite `requirement`; the statements in `alsoJudged` say the same of this credential and are judged with it. */
export async function expectRefusedEverywhere(
  ctx: CheckContext,
  credential: Credential | null,
  requirement: string,
  what: string,
  alsoJudged: string[] = [],
): Promise<void> {
  const target = await createPayment(ctx.api, {
    amount: await acceptedAmount(ctx, 'USD', '25.00'),
    currency: 'USD',
    title: 'auth probe target',
  });
  ctx.requireStatus(target, 201, requirement, 'Setup: create a payment with the valid key');
  const id = target.payment.id;
  const calls = [
    () => ctx.api.request({ method: 'POST', path: '/v1/payments', json: { amount: '10', currency: 'EUR' }, auth: credential }),
    () => ctx.api.request({ method: 'GET', path: '/v1/payments', auth: credential }),
    () => ctx.api.request({ method: 'GET', path: `/v1/payments/${id}`, auth: credential }),
    () => ctx.api.request({ method: 'DELETE', path: `/v1/payments/${id}`, auth: credential }),
    () => ctx.api.request({ method: 'GET', path: '/v1/webhooks', auth: credential }),
    () => ctx.api.request({ method: 'GET', path: '/v1/auth/api-keys', auth: credential }),
  ];
  const accepted: HttpResponse[] = [];
  for (const call of calls) {
    const response = await call();
    ctx.addCases();
    if (response.status !== 401) accepted.push(response);
  }
  // One finding per credential, listing every operation that did not refuse it.
  const first = accepted[0];
  if (first) {
    const where = accepted.map((r) => `${r.exchange.method} ${new URL(r.exchange.url).pathname} -> ${r.status}`).join('; ');
    ctx.fail(
      requirement,
      `${what} is not refused with 401`,
      `${accepted.length} of ${calls.length} operations answered other than 401: ${where}`,
      first.exchange,
    );
  }
  ctx.judged(requirement, ...alsoJudged);
  const after = await getPayment(ctx.api, id);
  ctx.expect(
    after.status === 200 && after.payment.status === 'ACTIVE',
    requirement,
    `A call with ${what} changed state`,
    () => `payment ${id} should still be ACTIVE after a DELETE with ${what}; GET answered ${after.status} ${after.text.slice(0, 200)}`,
    after.exchange,
  );
}
