// The fixture service's HTTP application (Hono): /v1 behind the rate limit and the key check, the control API when
// asked for, and a bare hosted page at /p/<id>. `payUrl` is the public base the payment URLs point at.
import { Hono } from 'hono';
import { rateLimit, requireKey, type Env } from './http.ts';
import { controlRoutes } from './routes-control.ts';
import { keyRoutes, webhookRoutes } from './routes-config.ts';
import { paymentRoutes } from './routes-payments.ts';
import { reportRoutes } from './routes-reports.ts';
import type { FixtureState } from './state.ts';

export function fixtureApp(state: FixtureState, options: { control: boolean; payUrl: () => string }): Hono<Env> {
  const app = new Hono<Env>();
  app.use('*', async (c, next) => {
    c.set('state', state);
    await next();
  });
  const v1 = new Hono<Env>();
  v1.use('*', rateLimit());
  v1.use('*', requireKey());
  v1.route('/payments', paymentRoutes(options.payUrl));
  v1.route('/webhooks', webhookRoutes());
  v1.route('/auth/api-keys', keyRoutes());
  v1.route('/', reportRoutes());
  app.route('/v1', v1);
  if (options.control) app.route('/control/v1', controlRoutes(options.payUrl));
  app.get('/p/:id', (c) => c.html(`<!doctype html><title>Payment</title><main><h1>Payment ${c.req.param('id')}</h1></main>`));
  return app;
}
