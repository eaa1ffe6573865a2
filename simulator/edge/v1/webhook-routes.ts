// /v1/webhooks routes (docs/decisions.md "Webhook endpoint"). Mounted by the app behind the
// auth middleware. The stores and validators refuse with domain refusals, which the app's onError
// maps; only what is HTTP alone (no merchant on the request, shutdown) is built here.
import { Hono } from 'hono';
import type { AppContext, AppEnv } from '../http/context.ts';
import { InvalidState } from '../../core/refusals/refusals.ts';
import { ApiError, unauthorized } from '../http/errors.ts';
import { readJsonBody } from '../http/json-body.ts';
import { toDeliveryView } from '../../core/webhooks/delivery-store.ts';
import { endpointNotFound } from '../../core/webhooks/endpoint-store.ts';
import type { WebhookConfiguration } from '../../core/webhooks/service.ts';
import type { WebhookDeliveryList } from '@stablepay/contract/types';
import {
  requireJsonObject,
  validateCreateEndpoint,
  validateDeliveriesQuery,
  validateUpdateEndpoint,
} from '../../core/webhooks/validate.ts';

/** The webhook service's configuration: its clock, stores and enqueue. */
export type WebhookRouteDeps = WebhookConfiguration;

function merchantOf(c: AppContext): string {
  const merchantId = c.get('merchantId');
  // Reaching here without the auth middleware is a wiring mistake; answer 401, not 500.
  if (!merchantId) throw unauthorized();
  return merchantId;
}

/** Mounted at /v1/webhooks by the composition root. */
export type WebhookRouter = Hono<AppEnv>;

export function webhookRoutes(deps: WebhookRouteDeps): WebhookRouter {
  const { clock, endpoints, deliveries } = deps;
  const app = new Hono<AppEnv>();

  app.get('/', (c) => {
    const endpoint = endpoints.get(merchantOf(c));
    if (!endpoint) throw endpointNotFound();
    return c.json(endpoint, 200);
  });

  app.post('/', async (c) => {
    const merchantId = merchantOf(c);
    const input = validateCreateEndpoint(requireJsonObject(await readJsonBody(c)));
    return c.json(endpoints.create(merchantId, input, clock.nowIso()), 201);
  });

  app.put('/', async (c) => {
    const merchantId = merchantOf(c);
    const patch = validateUpdateEndpoint(requireJsonObject(await readJsonBody(c)));
    return c.json(endpoints.update(merchantId, patch, clock.nowIso()), 200);
  });

  app.post('/regenerate-secret', (c) => {
    return c.json(endpoints.rotateSecret(merchantOf(c), clock.nowIso()), 200);
  });

  app.post('/test', (c) => {
    const merchantId = merchantOf(c);
    const endpoint = endpoints.get(merchantId);
    if (!endpoint) throw endpointNotFound();
    // A disabled endpoint gets no deliveries at all; saying so beats a 202 for nothing.
    if (!endpoint.enabled) throw new InvalidState('Webhook endpoint is disabled; enable it with PUT /v1/webhooks');
    const record = deps.enqueue(merchantId, { type: 'test' });
    if (!record) throw new ApiError(503, 'Webhook service is shutting down');
    return c.json(toDeliveryView(record), 202);
  });

  app.get('/deliveries', (c) => {
    const merchantId = merchantOf(c);
    const query = validateDeliveriesQuery(c.req.queries(), (cursor) => deliveries.has(merchantId, cursor));
    return c.json(deliveries.list(merchantId, query) satisfies WebhookDeliveryList, 200);
  });

  return app;
}
