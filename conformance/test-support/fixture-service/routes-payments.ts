// POST/GET/DELETE /v1/payments: create with the documented rules, retrieve, cancel while ACTIVE, and the cursor list
// (the item key, the order and the filters are the fixture's choices).
import { Hono } from 'hono';
import { emit } from './deliveries.ts';
import { jsonBody, problem, validation, type Env } from './http.ts';
import { createPayment, createView, LIVE, retrieveView, validateCreate } from './payments.ts';
import type { FixtureState, Payment } from './state.ts';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** ACTIVE payments past expiresAt become EXPIRED (PROCESSING ones too when the fixture chose so). */
export function expirePayments(state: FixtureState, now = state.now()): void {
  for (const payment of state.payments.values()) {
    const expiring = payment.status === 'ACTIVE' || (payment.status === 'PROCESSING' && state.choices.processingExpires);
    if (!expiring || payment.expiresAt > now) continue;
    payment.status = 'EXPIRED';
    payment.updatedAt = Math.max(payment.updatedAt, payment.expiresAt);
    emit(
      state,
      payment.merchantId,
      'payment.expired',
      { paymentId: payment.id, externalId: payment.externalId },
      { paymentId: payment.id },
    );
  }
}

/** Creates a payment from a request body, or answers 400/409. `dashboard` emits payment.created (control API creates). */
export function createFromBody(
  state: FixtureState,
  merchantId: string,
  body: unknown,
  dashboard = false,
): { payment?: Payment; status?: number; message?: string; errors?: { path: string[]; message: string }[] } {
  const { errors, value } = validateCreate(state, body);
  if (!value) return { status: 400, message: 'Validation failed', errors };
  const externalId = value.externalId as string | null;
  if (
    externalId !== null &&
    [...state.payments.values()].some((p) => p.merchantId === merchantId && p.externalId === externalId && LIVE.has(p.status))
  ) {
    return { status: 409, message: 'A payment with this externalId already exists' };
  }
  const payment = createPayment(state, merchantId, value);
  if (dashboard)
    emit(state, merchantId, 'payment.created', { paymentId: payment.id, externalId: payment.externalId }, { paymentId: payment.id });
  return { payment };
}

export function listPage<T extends { id: string; createdAt: number; seq: number }>(
  c: import('hono').Context<Env>,
  all: T[],
  view: (item: T) => unknown,
): Response {
  const state = c.get('state');
  const rawLimit = c.req.query('limit');
  const limit = rawLimit === undefined ? 20 : /^\d+$/.test(rawLimit) ? Number(rawLimit) : NaN;
  if (!(limit >= 1 && limit <= 100)) return validation(c, [{ path: ['limit'], message: 'must be an integer from 1 to 100' }]);
  const newestFirst = (a: T, b: T) => b.createdAt - a.createdAt || b.seq - a.seq;
  const sorted = [...all].sort(state.choices.listOldestFirst ? (a, b) => -newestFirst(a, b) : newestFirst);
  const cursor = c.req.query('cursor');
  let start = 0;
  if (cursor !== undefined) {
    const at = sorted.findIndex((item) => item.id === cursor);
    if (at < 0) return validation(c, [{ path: ['cursor'], message: 'unknown cursor' }]);
    start = at + 1 + (state.has('list-skips-item') ? 1 : 0);
  }
  const page = sorted.slice(start, start + limit);
  const hasMore = start + limit < sorted.length;
  return c.json({ [state.choices.listItemKey]: page.map(view), nextCursor: hasMore ? page.at(-1)!.id : null, hasMore });
}

export function paymentRoutes(payUrl: () => string): Hono<Env> {
  const app = new Hono<Env>();
  app.post('/', async (c) => {
    const state = c.get('state');
    const body = await jsonBody(c);
    const made = createFromBody(state, c.get('key').merchantId, body === undefined ? null : body);
    if (!made.payment) return made.status === 400 ? validation(c, made.errors ?? []) : problem(c, made.status!, made.message!);
    return c.json(createView(made.payment, payUrl()), state.has('create-answers-200') ? 200 : 201);
  });
  app.get('/', (c) => {
    const state = c.get('state');
    const merchantId = c.get('key').merchantId;
    const filters = state.choices.listFilters;
    const status = filters ? c.req.query('status') : undefined;
    const externalId = filters ? c.req.query('externalId') : undefined;
    const all = [...state.payments.values()].filter(
      (p) => p.merchantId === merchantId && (!status || p.status === status) && (!externalId || p.externalId === externalId),
    );
    return listPage(c, all, (p) => retrieveView(p, payUrl()));
  });
  const find = (c: import('hono').Context<Env>): Payment | undefined => {
    const payment = c.get('state').payments.get(c.req.param('id') ?? '');
    return payment && (payment.merchantId === c.get('key').merchantId || c.get('state').has('foreign-payment-visible'))
      ? payment
      : undefined;
  };
  const notFound = (c: import('hono').Context<Env>) =>
    c.get('state').has('unknown-payment-400') ? problem(c, 400, 'Unknown payment') : problem(c, 404, 'Payment not found');
  app.get('/:id', (c) => {
    const payment = find(c);
    return payment ? c.json(retrieveView(payment, payUrl())) : notFound(c);
  });
  app.delete('/:id', (c) => {
    const state = c.get('state');
    const payment = find(c);
    if (!payment) return notFound(c);
    const cancellable = payment.status === 'ACTIVE' || (payment.status === 'PROCESSING' && state.has('cancel-from-processing'));
    if (!cancellable) return problem(c, 400, `Payment is not ACTIVE (status: ${payment.status})`);
    payment.status = 'CANCELLED';
    payment.updatedAt = state.now();
    emit(
      state,
      payment.merchantId,
      'payment.cancelled',
      { paymentId: payment.id, externalId: payment.externalId },
      { paymentId: payment.id },
    );
    return c.json(retrieveView(payment, payUrl()));
  });
  return app;
}

export { UUID };
