// GET /v1/analytics (summary, default last 30 days) and GET /v1/analytics/export (30-day CSV).
// The summary reads the pre-aggregated tallies (tallies.ts) and the store's time index for the
// window's edges; the export streams the window's rows from the time index.
import { Hono } from 'hono';
import type { VirtualClock } from '../../core/clock/virtual-clock.ts';
import type { AppEnv } from '../http/context.ts';
import { singleQuery } from '../http/list-query.ts';
import type { PaymentRepository } from '../../core/payments/payment-store.ts';
import { parseDateTime, Problems } from '../../core/validation/index.ts';
import { paymentsCsvStream } from '../../core/analytics/csv-export.ts';
import type { AnalyticsTallies } from '../../core/analytics/tallies.ts';

export const ANALYTICS_WINDOW_MS = 30 * 86_400_000;

export interface AnalyticsRouteOptions {
  store: Pick<PaymentRepository, 'all'>;
  /** Kept up to date with every payment change of `store` (the payment service's listener). */
  tallies: Pick<AnalyticsTallies, 'summary'>;
  clock: VirtualClock;
}

export function analyticsRoutes({ store, tallies, clock }: AnalyticsRouteOptions): Hono<AppEnv> {
  const app = new Hono<AppEnv>();

  app.get('/', (c) => {
    const problems = new Problems();
    const now = clock.now();
    const read = (name: 'from' | 'to', fallback: number): number => {
      const raw = singleQuery(c, name, problems);
      if (raw === undefined) return fallback;
      const at = parseDateTime(raw);
      if (at === undefined) problems.add([name], `${name} must be an ISO 8601 date-time`);
      return at ?? fallback;
    };
    const to = read('to', now);
    const from = read('from', to - ANALYTICS_WINDOW_MS);
    if (problems.size === 0 && from > to) problems.add(['from'], 'from must not be after to');
    problems.throwIfAny();
    const merchantId = c.get('merchantId');
    return c.json(
      tallies.summary(merchantId, from, to, (a, b) => store.all(merchantId, { from: a, to: b })),
      200,
    );
  });

  app.get('/export', (c) => {
    const now = clock.now();
    const since = now - ANALYTICS_WINDOW_MS;
    const recent = store.all(c.get('merchantId'), { from: since, to: now });
    const day = new Date(now).toISOString().slice(0, 10);
    return c.body(paymentsCsvStream(recent), 200, {
      'Content-Type': 'text/csv; charset=utf-8',
      'Content-Disposition': `attachment; filename="payments-${day}.csv"`,
    });
  });

  return app;
}
