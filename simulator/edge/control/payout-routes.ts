// Control API: drive a payout through its lifecycle (payer submits, chain confirms or fails, cancel).
import { Hono } from 'hono';
import { notFound } from '../http/errors.ts';
import { readJsonBody } from '../http/json-body.ts';
import { payoutView } from '../../core/payouts/types.ts';
import { parseChoice, parseFailure } from './choice.ts';
import type { ControlDeps } from './control-deps.ts';

export function payoutControlRoutes({ payouts }: ControlDeps): Hono {
  const app = new Hono();
  const existing = (id: string): string => {
    if (!payouts.find(id)) throw notFound('Payout');
    return id;
  };

  app.post('/:id/submit', async (c) => {
    const id = existing(c.req.param('id'));
    return c.json(payoutView(payouts.submit(id, parseChoice(await readJsonBody(c)))), 200);
  });
  app.post('/:id/confirm', async (c) => {
    const id = existing(c.req.param('id'));
    await readJsonBody(c, { optional: true });
    return c.json(payoutView(payouts.confirm(id)), 200);
  });
  app.post('/:id/fail', async (c) => {
    const id = existing(c.req.param('id'));
    return c.json(payoutView(payouts.fail(id, parseFailure(await readJsonBody(c, { optional: true })))), 200);
  });
  app.post('/:id/cancel', async (c) => {
    const id = existing(c.req.param('id'));
    await readJsonBody(c, { optional: true });
    return c.json(payoutView(payouts.cancel(id)), 200);
  });
  return app;
}
