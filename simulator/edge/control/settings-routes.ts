// Control API: exchange rates, rate-limit settings, health.
import { Hono } from 'hono';
import { rateProblem } from '../../core/reference-data/exchange-rates.ts';
import { validationError } from '../http/errors.ts';
import { readJsonBody } from '../http/json-body.ts';
import { rateLimitSettingsProblem } from '../../core/rate-limit/fixed-window.ts';
import { isPlainObject, Problems, rejectUnknownFields } from '../../core/validation/index.ts';
import type { ExchangeRates, RateLimitSettings } from '@stablepay/contract/types';
import type { ControlDeps } from './control-deps.ts';

export function settingsRoutes({ rates, limiter, chainHealth, faults = [] }: ControlDeps): Hono {
  const app = new Hono();

  app.get('/exchange-rates', (c) => c.json({ rates: rates.toJSON() } satisfies ExchangeRates, 200));

  app.put('/exchange-rates', async (c) => {
    const body = await readJsonBody(c);
    const problems = new Problems();
    if (!isPlainObject(body)) problems.add([], 'Request body must be a JSON object');
    else {
      rejectUnknownFields(body, ['rates'], problems);
      if (!isPlainObject(body.rates) || Object.keys(body.rates).length === 0)
        problems.add(['rates'], 'rates must be a non-empty object of currency -> rate');
      else
        for (const [currency, value] of Object.entries(body.rates)) {
          const problem = rateProblem(currency, value);
          if (problem) problems.add(['rates', currency], problem);
        }
    }
    problems.throwIfAny();
    rates.update((body as { rates: Record<string, string> }).rates);
    return c.json({ rates: rates.toJSON() } satisfies ExchangeRates, 200);
  });

  app.get('/rate-limit', (c) => c.json(limiter.current satisfies RateLimitSettings, 200));

  app.put('/rate-limit', async (c) => {
    const body = await readJsonBody(c);
    if (!isPlainObject(body)) throw validationError([{ path: [], message: 'Request body must be a JSON object' }]);
    const problems = new Problems();
    rejectUnknownFields(body, ['limit', 'windowSeconds'], problems);
    for (const p of rateLimitSettingsProblem(body.limit, body.windowSeconds)) problems.add(p.path, p.message);
    problems.throwIfAny();
    limiter.configure({ limit: body.limit as number, windowSeconds: body.windowSeconds as number });
    return c.json(limiter.current satisfies RateLimitSettings, 200);
  });

  app.get('/health', async (c) =>
    c.json({ status: 'ok', chains: await chainHealth(), ...(faults.length > 0 ? { faults: [...faults] } : {}) }, 200),
  );

  return app;
}
