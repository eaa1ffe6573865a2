// /v1/payments: create, retrieve, cancel, list (spec §4). Mounted behind auth and rate limiting.
import { Hono } from 'hono';
import type { ActiveFaults } from '../faults/active-faults.ts';
import { NO_FAULTS } from '../faults/active-faults.ts';
import type { AppEnv } from '../http/context.ts';
import { readJsonBody } from '../http/json-body.ts';
import { envelope, MAX_LIMIT, parseListQuery, singleQuery } from '../http/list-query.ts';
import { Problems } from '../validation/problems.ts';
import type { PaymentList } from '../../contract/types.ts';
import type { PaymentService } from './payment-service.ts';
import type { PaymentStatus } from './types.ts';
import { PAYMENT_STATUSES } from './types.ts';
import { EXTERNAL_ID_PATTERN } from './validate-create.ts';
import { createView, retrieveView } from './views.ts';

export interface PaymentRouteOptions {
  payments: PaymentService;
  payUrl: string;
  faults?: ActiveFaults;
}

/** The `list-limit-unbounded` fault's cap (the 3-digit grammar stops at 999 anyway). */
const UNBOUNDED_LIMIT = 999;

export function paymentRoutes({ payments, payUrl, faults = NO_FAULTS }: PaymentRouteOptions): Hono<AppEnv> {
  const app = new Hono<AppEnv>();

  app.post('/', async (c) => {
    const body = await readJsonBody(c);
    const payment = faults['external-id-check-then-insert']
      ? await payments.createCheckingFirst(c.get('merchantId'), body, 'api')
      : payments.create(c.get('merchantId'), body, 'api');
    return c.json(createView(payment, payUrl), 201);
  });

  app.get('/', (c) => {
    const problems = new Problems();
    const { cursor, limit } = parseListQuery(c, problems, faults['list-limit-unbounded'] ? UNBOUNDED_LIMIT : MAX_LIMIT);
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
    return c.json(envelope(page.items.map((p) => retrieveView(p, payUrl, faults)), page.hasMore) satisfies PaymentList, 200);
  });

  app.get('/:id', (c) => c.json(retrieveView(payments.get(c.get('merchantId'), c.req.param('id')), payUrl, faults), 200));

  app.delete('/:id', (c) => c.json(retrieveView(payments.cancel(c.get('merchantId'), c.req.param('id')), payUrl, faults), 200));

  return app;
}
