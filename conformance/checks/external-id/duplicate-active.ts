import type { PaymentList } from '@stablepay/contract/types';
import type { CheckContext } from '../../context.ts';
import { defineCheck } from '../../registry.ts';
import { createPayment, uniqueExternalId } from '../../support/payments.ts';
import type { Received } from '../../received.ts';
import { expectConflict } from './conflict.ts';

export const duplicateActive = defineCheck({
  id: 'external-id.duplicate-active',
  title: 'A second create with the externalId of an ACTIVE payment is 409 Conflict',
  requirements: ['PAY-CREATE-EXTERNAL-ID-UNIQUE-LIVE', 'ERR-409-EXTERNAL-ID', 'ERR-BODY-SHAPE'],
  level: 'documented',
  needs: [],
  tags: ['external-id'],
  async run(ctx: CheckContext) {
    const externalId = uniqueExternalId('dup');
    const first = await createPayment(ctx.api, { amount: '15.00', currency: 'GBP', externalId });
    ctx.requireStatus(first, 201, 'PAY-CREATE-EXTERNAL-ID-UNIQUE-LIVE', 'Setup: create with a fresh externalId');
    // Same externalId, different everything else: uniqueness is on externalId alone.
    const second = await createPayment(ctx.api, { amount: '99.00', currency: 'EUR', externalId });
    expectConflict(ctx, second, 'ERR-409-EXTERNAL-ID', 'ACTIVE');
    const list = await ctx.api.get('/v1/payments', { externalId, limit: 100 });
    const live = ((list.json as Received<PaymentList> | undefined)?.data ?? []).filter((p) => p.externalId === externalId);
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
