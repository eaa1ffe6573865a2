// /v1/payments: create, retrieve, cancel, list (spec §4). Mounted behind auth and rate limiting.
import { Hono } from 'hono';
import type { AppEnv } from '../http/context.ts';
import type { DirectAnswer, DirectRoute } from '../http/direct-path.ts';
import { readJsonBody } from '../http/json-body.ts';
import { envelope, MAX_LIMIT, parseListQuery, singleQuery } from '../http/list-query.ts';
import { Problems } from '../../core/validation/problems.ts';
import type { PaymentList } from '@stablepay/contract/types';
import type { PaymentService } from '../../core/payments/payment-service.ts';
import type { Payment, PaymentStatus } from '../../core/payments/types.ts';
import { PAYMENT_STATUSES } from '../../core/payments/types.ts';
import { EXTERNAL_ID_PATTERN } from '../../core/payments/validate-create.ts';
import { createView, retrieveView, type RetrieveView } from '../../core/payments/views.ts';

/** What the routes ask of the payment service; create may be asynchronous (a store behind a network). */
export interface PaymentOperations {
  create(merchantId: string, body: unknown, origin: 'api'): Payment | Promise<Payment>;
  get: PaymentService['get'];
  cancel: PaymentService['cancel'];
  list: PaymentService['list'];
}

export interface PaymentRouteOptions {
  payments: PaymentOperations;
  payUrl: string;
  /** The retrieve view (GET, DELETE, list items); `retrieveView` by default. */
  view?: RetrieveView;
  /** The largest `limit` a list accepts (decisions.md: 100). */
  maxListLimit?: number;
}

/** POST /v1/payments after the pipeline's stages: the create view, 201. Asynchronous only when the create is. */
function createPayment(
  { payments, payUrl }: Pick<PaymentRouteOptions, 'payments' | 'payUrl'>,
  merchantId: string,
  body: unknown,
): DirectAnswer | Promise<DirectAnswer> {
  const answer = (payment: Payment): DirectAnswer => ({ status: 201, body: createView(payment, payUrl) });
  const created = payments.create(merchantId, body, 'api');
  return created instanceof Promise ? created.then(answer) : answer(created);
}

/** The create route as the direct path runs it (edge/http/direct-path.ts), at its path under /v1. */
export function createPaymentDirectRoute(options: Pick<PaymentRouteOptions, 'payments' | 'payUrl'>): DirectRoute {
  return {
    method: 'POST',
    path: '/v1/payments',
    handle: (request, body) => createPayment(options, request.vars.merchantId as string, body),
  };
}

export function paymentRoutes({ payments, payUrl, view = retrieveView, maxListLimit = MAX_LIMIT }: PaymentRouteOptions): Hono<AppEnv> {
  const app = new Hono<AppEnv>();

  app.post('/', async (c) => {
    const body = await readJsonBody(c);
    const { status, body: created } = await createPayment({ payments, payUrl }, c.get('merchantId'), body);
    return c.json(created, status as 201);
  });

  app.get('/', (c) => {
    const problems = new Problems();
    const { cursor, limit } = parseListQuery(c, problems, maxListLimit);
    const status = singleQuery(c, 'status', problems);
    if (status !== undefined && !(PAYMENT_STATUSES as readonly string[]).includes(status)) {
      problems.add(['status'], `status must be one of ${PAYMENT_STATUSES.join(', ')}`);
    }
    const externalId = singleQuery(c, 'externalId', problems);
    if (externalId !== undefined && !EXTERNAL_ID_PATTERN.test(externalId)) {
      problems.add(['externalId'], 'externalId must be 1 to 36 letters, digits, hyphens, underscores or dots');
    }
    problems.throwIfAny();
    const page = payments.list(c.get('merchantId'), { cursor, limit, status: status as PaymentStatus | undefined, externalId });
    return c.json(
      envelope(
        page.items.map((p) => view(p, payUrl)),
        page.hasMore,
      ) satisfies PaymentList,
      200,
    );
  });

  app.get('/:id', (c) => c.json(view(payments.get(c.get('merchantId'), c.req.param('id')), payUrl), 200));

  app.delete('/:id', (c) => c.json(view(payments.cancel(c.get('merchantId'), c.req.param('id')), payUrl), 200));

  return app;
}
