import type { CheckContext } from '../../context.ts';
import { defineCheck } from '../../registry.ts';
import { acceptedAmount } from '../../support/amounts.ts';
import { getList } from '../../support/lists.ts';
import { createPayment, uniqueExternalId, type Payment } from '../../support/payments.ts';
import type { Received } from '../../received.ts';
import { expectConflict } from './conflict.ts';

export const duplicateActive = defineCheck({
  id: 'external-id.duplicate-active',
  title: 'A second create with the externalId of an ACTIVE payment is 409 Conflict',
  requirements: ['PAY-CREATE-EXTERNAL-ID-UNIQUE-LIVE', 'ERR-409-EXTERNAL-ID', 'ERR-BODY-SHAPE'],
  level: 'documented',
  needs: [],
  tags: ['external-id'],
  premises: ['payments.minimum-amounts', 'list.item-key'],
  async run(ctx: CheckContext) {
    const externalId = uniqueExternalId('dup');
    const first = await createPayment(ctx.api, { amount: await acceptedAmount(ctx, 'GBP', '15.00'), currency: 'GBP', externalId });
    ctx.requireStatus(first, 201, 'PAY-CREATE-EXTERNAL-ID-UNIQUE-LIVE', 'Setup: create with a fresh externalId');
    // Same externalId, different everything else: uniqueness is on externalId alone.
    const second = await createPayment(ctx.api, { amount: await acceptedAmount(ctx, 'EUR', '99.00'), currency: 'EUR', externalId });
    expectConflict(ctx, second, 'ERR-409-EXTERNAL-ID', 'ACTIVE');
    // The externalId filter is ours (not shown): without it the newest 100 still hold both creates.
    const list = await getList<Received<Payment>>(ctx, ctx.api, '/v1/payments', { externalId, limit: 100 });
    const live = (list.items ?? []).filter((p) => p.externalId === externalId);
    ctx.expect(
      list.status !== 200 || live.length <= 1,
      'PAY-CREATE-EXTERNAL-ID-UNIQUE-LIVE',
      'A second live payment was minted',
      () => `${live.length} payments carry externalId ${externalId}`,
      list.exchange,
    );
    ctx.addCases(2);
  },
});
