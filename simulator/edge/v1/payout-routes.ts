// GET /v1/payouts/{id}: full payout details, as the payout.* webhook events point to.
import { Hono } from 'hono';
import type { AppEnv } from '../http/context.ts';
import type { PayoutService } from '../../core/payouts/payout-service.ts';
import { payoutView } from '../../core/payouts/types.ts';

export function payoutRoutes({ payouts }: { payouts: PayoutService }): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  app.get('/:id', (c) => c.json(payoutView(payouts.get(c.get('merchantId'), c.req.param('id'))), 200));
  return app;
}
