// The control API (decisions.md "Control API"), mounted at /control/v1 unless disabled.
import { Hono } from 'hono';
import { clockRoutes, testClockRoutes } from './clock-routes.ts';
import type { ControlDeps } from './control-deps.ts';
import { customerRoutes } from './customer-routes.ts';
import { dashboardRoutes } from './dashboard-routes.ts';
import { listenerRoutes } from './listener-routes.ts';
import { payoutControlRoutes } from './payout-routes.ts';
import { resetRoutes } from './reset-routes.ts';
import { settingsRoutes } from './settings-routes.ts';

export function controlRoutes(deps: ControlDeps): Hono {
  const app = new Hono();
  app.route('/clock', clockRoutes(deps));
  app.route('/clocks', testClockRoutes(deps));
  app.route('/', dashboardRoutes(deps));
  app.route('/payments', customerRoutes(deps));
  app.route('/payouts', payoutControlRoutes(deps));
  app.route('/listeners', listenerRoutes(deps));
  app.route('/', settingsRoutes(deps));
  if (deps.reset) app.route('/reset', resetRoutes(deps.reset));
  return app;
}
