import type { CheckContext } from '../../context.ts';
import { defineCheck } from '../../registry.ts';
import { acceptedAmount } from '../../support/amounts.ts';
import { cancelPayment, createPayment, uniqueExternalId } from '../../support/payments.ts';

export const reuseAfterCancel = defineCheck({
  id: 'external-id.reuse-after-cancel',
  title: 'The externalId of a CANCELLED payment can be used again',
  requirements: ['PAY-CREATE-EXTERNAL-ID-REUSABLE'],
  level: 'documented',
  needs: [],
  tags: ['external-id'],
  premises: ['payments.minimum-amounts'],
  async run(ctx: CheckContext) {
    const externalId = uniqueExternalId('rc');
    const amount = await acceptedAmount(ctx, 'USD', '30.00');
    const first = await createPayment(ctx.api, { amount, currency: 'USD', externalId });
    ctx.requireStatus(first, 201, 'PAY-CREATE-EXTERNAL-ID-REUSABLE', 'Setup: create');
    const cancelled = await cancelPayment(ctx.api, first.payment.id);
    ctx.requireStatus(cancelled, '2xx', 'PAY-CREATE-EXTERNAL-ID-REUSABLE', 'Setup: cancel the ACTIVE payment');
    const again = await createPayment(ctx.api, { amount, currency: 'USD', externalId });
    ctx.expect(
      again.status === 201,
      'PAY-CREATE-EXTERNAL-ID-REUSABLE',
      'externalId of a CANCELLED payment not reusable',
      () => `expected 201, got ${again.status}: ${again.text.slice(0, 200)}`,
      again.exchange,
    );
    ctx.addCases();
  },
});
