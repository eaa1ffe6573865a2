// DELETE without a control API: ACTIVE -> CANCELLED with the updated payment, CANCELLED stays,
// a second DELETE is 400, an unknown id is 404.
import type { ErrorBody } from '@stablepay/contract/types';
import type { CheckContext } from '../../context.ts';
import { randomUUID } from 'node:crypto';
import { defineCheck } from '../../registry.ts';
import { INVARIANT_REQUIREMENTS, TOKEN_IDENTITY_REQUIREMENTS } from '../../model/field-lifetimes.ts';
import { PaymentTracker } from '../../model/invariants.ts';
import { acceptedAmount } from '../../support/amounts.ts';
import { cancelPayment, createPayment, getPayment } from '../../support/payments.ts';
import type { Received } from '../../received.ts';
import { observe } from './observe.ts';

export const cancelFlow = defineCheck({
  id: 'lifecycle.cancel',
  title: 'Cancel returns the CANCELLED payment, the state sticks, a second cancel is 400, unknown id 404',
  requirements: [
    'PAY-STATE-ACTIVE-TO-CANCELLED',
    'PAY-CANCEL-RESPONSE',
    'PAY-CANCEL-RESPONSE-200',
    'PAY-CANCEL-ONLY-ACTIVE',
    'ERR-400-CANCEL-NOT-ACTIVE',
    'ERR-404-PAYMENT-NOT-FOUND',
    'ERR-BODY-SHAPE',
    'PAY-STATE-MEANING-CANCELLED',
    // Field lifetimes; the token identities need an initiated payment, which a cancel never has.
    ...INVARIANT_REQUIREMENTS.filter((id) => !TOKEN_IDENTITY_REQUIREMENTS.includes(id)),
  ],
  level: 'documented',
  needs: [],
  tags: ['lifecycle'],
  premises: ['payments.minimum-amounts'],
  async run(ctx: CheckContext) {
    const tracker = new PaymentTracker();
    const body = { amount: await acceptedAmount(ctx, 'EUR', '18.00'), currency: 'EUR', title: 'cancel me', acceptedChains: [8453, 1] };
    const created = await createPayment(ctx.api, body);
    ctx.requireStatus(created, 201, 'PAY-STATE-ACTIVE-TO-CANCELLED', 'Setup: create');
    const id = created.payment.id;
    tracker.created(id, body);
    observe(ctx, tracker, created);
    observe(ctx, tracker, await getPayment(ctx.api, id));
    const cancelled = await cancelPayment(ctx.api, id);
    // The spec shows no status for a cancel, only that it returns the updated payment: any 2xx; 200 is ours.
    ctx.requireStatus(cancelled, '2xx', 'PAY-STATE-ACTIVE-TO-CANCELLED', 'Cancel of an ACTIVE payment refused');
    ctx.expect(
      cancelled.status === 200,
      'PAY-CANCEL-RESPONSE-200',
      'Cancel does not answer 200',
      `answered ${cancelled.status}`,
      cancelled.exchange,
    );
    observe(ctx, tracker, cancelled);
    ctx.expect(
      cancelled.payment.status === 'CANCELLED' && cancelled.payment.id === id,
      'PAY-CANCEL-RESPONSE',
      'Cancel does not return the updated payment',
      () => `response: ${cancelled.text.slice(0, 200)}`,
      cancelled.exchange,
    );
    const fetched = await getPayment(ctx.api, id);
    observe(ctx, tracker, fetched);
    if (
      ctx.expect(
        fetched.payment?.status === 'CANCELLED',
        'PAY-STATE-ACTIVE-TO-CANCELLED',
        'Cancelled payment is not CANCELLED on GET',
        () => `GET shows ${fetched.payment?.status}`,
        fetched.exchange,
      )
    ) {
      // CANCELLED, reached by the merchant's DELETE and nothing else here: the state means what the spec says.
      ctx.judged('PAY-STATE-MEANING-CANCELLED');
    }
    const again = await cancelPayment(ctx.api, id);
    observe(ctx, tracker, await getPayment(ctx.api, id));
    if (
      ctx.expect(
        again.status === 400,
        'ERR-400-CANCEL-NOT-ACTIVE',
        'Cancel of a CANCELLED payment is not 400',
        () => `got ${again.status}: ${again.text.slice(0, 200)}`,
        again.exchange,
      )
    ) {
      ctx.judged('PAY-CANCEL-ONLY-ACTIVE');
      const body = again.json as Received<ErrorBody>;
      ctx.expect(
        body?.statusCode === 400 && body.error === 'Bad Request' && typeof body.message === 'string',
        'ERR-BODY-SHAPE',
        '400 body lacks statusCode/message/error',
        () => again.text.slice(0, 200),
        again.exchange,
      );
    }
    const unknownId = randomUUID();
    const missingGet = await ctx.api.get(`/v1/payments/${unknownId}`);
    ctx.expect(
      missingGet.status === 404,
      'ERR-404-PAYMENT-NOT-FOUND',
      'GET of an unknown id is not 404',
      () => `got ${missingGet.status}`,
      missingGet.exchange,
    );
    const missingDelete = await cancelPayment(ctx.api, unknownId);
    ctx.expect(
      missingDelete.status === 404,
      'ERR-404-PAYMENT-NOT-FOUND',
      'DELETE of an unknown id is not 404',
      () => `got ${missingDelete.status}`,
      missingDelete.exchange,
    );
    ctx.addCases(5);
  },
});
