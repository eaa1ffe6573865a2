// Control API: act as the customer (and the chain) on a payment, through the settlement driver.
import { Hono } from 'hono';
import { notFound } from '../http/errors.ts';
import { readJsonBody } from '../http/json-body.ts';
import type { Payment } from '../../core/payments/types.ts';
import { retrieveView } from '../../core/payments/views.ts';
import { parseChoice, parseFailure } from './choice.ts';
import type { ControlDeps } from './control-deps.ts';

export function customerRoutes(deps: ControlDeps): Hono {
  const { payments, settlement, payUrl } = deps;
  const app = new Hono();
  // The stored record as is: a submit that arrives at expiresAt before the timer ran must meet
  // the table's own expiry guard (400 + expire), not a pre-expired record (409).
  const paymentOf = (id: string): Payment => {
    const payment = payments.store.get(id);
    if (!payment) throw notFound();
    return payment;
  };
  const view = (p: Payment) => retrieveView(p, payUrl);

  app.post('/:id/submit', async (c) => {
    const payment = paymentOf(c.req.param('id'));
    const choice = parseChoice(await readJsonBody(c));
    return c.json(view(await settlement.submit(payment, choice)), 200);
  });

  app.post('/:id/confirm', async (c) => {
    const payment = paymentOf(c.req.param('id'));
    await readJsonBody(c, { optional: true });
    return c.json(view(await settlement.confirm(payment)), 200);
  });

  app.post('/:id/fail', async (c) => {
    const payment = paymentOf(c.req.param('id'));
    const failure = parseFailure(await readJsonBody(c, { optional: true }), settlement.defaultFailureSource);
    return c.json(view(await settlement.fail(payment, failure)), 200);
  });

  app.post('/:id/pay', async (c) => {
    const payment = paymentOf(c.req.param('id'));
    const choice = parseChoice(await readJsonBody(c));
    const processing = await settlement.submit(payment, choice);
    return c.json(view(await settlement.confirm(processing)), 200);
  });

  return app;
}
