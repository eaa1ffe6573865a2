// The hosted payment page at {pay_url}/p/:id and the public JSON endpoints it calls. Nothing here
// takes or returns an API key; a customer gets a checkout token (ct_...) scoped to one payment.
import { Hono } from 'hono';
import type { Context } from 'hono';
import { isPairSupported } from '@stablepay/contract/chain-table';
import { parseChoice } from '../control/choice.ts';
import { ApiError, conflict, notFound, unauthorized } from '../http/errors.ts';
import { readJsonBody } from '../http/json-body.ts';
import { MESSAGES } from '../http/messages.ts';
import type { Payment } from '../../core/payments/types.ts';
import type { Asset } from './assets.ts';
import { clientScript, stylesheet } from './assets.ts';
import type { CheckoutService } from '../../core/checkout/index.ts';
import type { PaymentState } from './customer-view.ts';
import { customerView } from './customer-view.ts';
import { bearerCheckoutToken, parseConnect, parseSignIn } from './parse-inputs.ts';
import type { PayPageDeps } from './pay-page-deps.ts';
import { defaultRedirectUrlOf } from './pay-page-deps.ts';
import { renderNotFoundPage, renderPayPage } from './page/render.tsx';
import { securityHeaders } from './security-headers.ts';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function payPageRoutes(deps: PayPageDeps): Hono {
  const redirectUrlOf = deps.redirectUrlOf ?? defaultRedirectUrlOf(deps.merchants);
  const findPayment = (id: string): Payment | undefined => (UUID.test(id) ? deps.payments.find(id) : undefined);
  const paymentOr404 = (id: string): Payment => {
    const payment = findPayment(id);
    if (!payment) throw notFound();
    return payment;
  };
  const payableOr409 = (id: string): Payment => {
    const payment = paymentOr404(id);
    if (payment.status !== 'ACTIVE') throw conflict(MESSAGES.paymentNotActive(payment.status));
    return payment;
  };
  const checkoutOr503 = (): CheckoutService => {
    if (!deps.checkout) throw new ApiError(503, 'This simulator run has no chains attached, so payments cannot be made at the hosted page');
    return deps.checkout;
  };
  const state = (payment: Payment): PaymentState => ({
    payment: customerView(payment, deps.merchants.get(payment.merchantId)?.name ?? null, redirectUrlOf(payment.merchantId) ?? null),
    now: new Date(deps.clock.now()).toISOString(),
  });

  const app = new Hono();
  app.use('*', securityHeaders());

  const serve = (load: () => Promise<Asset>) => async (c: Context) => {
    const asset = await load();
    c.header('ETag', asset.etag);
    c.header('Cache-Control', 'no-cache');
    if (c.req.header('if-none-match') === asset.etag) return c.body(null, 304);
    c.header('Content-Type', asset.contentType);
    return c.body(asset.body, 200);
  };
  app.get('/assets/pay-page.js', serve(clientScript));
  app.get('/assets/pay-page.css', serve(stylesheet));

  app.get('/:id', async (c) => {
    const payment = findPayment(c.req.param('id'));
    if (!payment) return c.html(renderNotFoundPage(), 404);
    const pairs = payment.status === 'ACTIVE' && deps.checkout ? await deps.checkout.pairs(payment.id) : [];
    return c.html(renderPayPage({ state: state(payment), pairs, checkoutAvailable: deps.checkout !== undefined }), 200);
  });

  app.get('/:id/state', (c) => c.json(state(paymentOr404(c.req.param('id'))), 200));

  app.post('/:id/sign-in', async (c) => {
    const input = parseSignIn(await readJsonBody(c));
    const payment = payableOr409(c.req.param('id'));
    return c.json(await checkoutOr503().signIn(payment.id, input), 200);
  });

  app.post('/:id/connect', async (c) => {
    const input = parseConnect(await readJsonBody(c));
    const payment = payableOr409(c.req.param('id'));
    return c.json(await checkoutOr503().connectWallet(payment.id, input), 200);
  });

  app.post('/:id/prepare', async (c) => {
    const choice = parseChoice(await readJsonBody(c));
    const payment = paymentOr404(c.req.param('id'));
    const token = bearerCheckoutToken(c.req.header('authorization'));
    // A token acts only on the link it was issued for (its session says which; it survives a durable restart).
    if (!token || deps.checkout?.paymentOf(token) !== payment.id)
      throw unauthorized('Sign in on this payment page first (Authorization: Bearer ct_...)');
    if (payment.status !== 'ACTIVE') throw conflict(MESSAGES.paymentNotActive(payment.status));
    const allowed =
      payment.acceptedChains.includes(choice.chainId) &&
      payment.acceptedTokens.includes(choice.token) &&
      isPairSupported(choice.chainId, choice.token);
    if (!allowed) throw new ApiError(400, `${choice.token} on chain ${choice.chainId} is not accepted for this payment`);
    return c.json(await checkoutOr503().prepare(token, choice), 200);
  });

  return app;
}
