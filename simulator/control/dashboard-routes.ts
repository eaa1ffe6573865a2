// Control API: what a merchant would do in the dashboard — sign up, make keys (even already
// expired ones), create payment links (emits payment.created) and payouts (emits payout.created).
import { Hono } from 'hono';
import { apiKeyView } from '../auth/api-key.ts';
import { validateApiKeyInput } from '../auth/validate-api-key.ts';
import { readJsonBody } from '../http/json-body.ts';
import { merchantView } from '../merchants/merchant-store.ts';
import { retrieveView } from '../payments/views.ts';
import { payoutView } from '../payouts/types.ts';
import { addressProblem, charLength, isPlainObject, Problems, rejectUnknownFields } from '../validation/index.ts';
import type { ControlDeps } from './control-deps.ts';
import { merchantFromBearer } from './control-deps.ts';

function parseMerchantInput(body: unknown): { name?: string | null; walletAddress?: string } {
  const problems = new Problems();
  if (!isPlainObject(body)) {
    problems.add([], 'Request body must be a JSON object');
    problems.throwIfAny();
  }
  const input = body as Record<string, unknown>;
  rejectUnknownFields(input, ['name', 'walletAddress'], problems);
  if (input.name !== undefined && input.name !== null && (typeof input.name !== 'string' || charLength(input.name) > 100)) {
    problems.add(['name'], 'name must be a string of at most 100 characters');
  }
  if (input.walletAddress !== undefined) {
    const problem = addressProblem(input.walletAddress);
    if (problem) problems.add(['walletAddress'], problem.replace(/^address/, 'walletAddress'));
  }
  problems.throwIfAny();
  return {
    name: (input.name as string | null | undefined) ?? null,
    ...(typeof input.walletAddress === 'string' ? { walletAddress: input.walletAddress } : {}),
  };
}

export function dashboardRoutes(deps: ControlDeps): Hono {
  const { clock, merchants, keys, payments, payouts, payUrl } = deps;
  const app = new Hono();

  app.post('/merchants', async (c) => {
    const input = parseMerchantInput(await readJsonBody(c, { optional: true }));
    const now = clock.now();
    const merchant = merchants.create(input, now);
    const { record, key } = keys.create(merchant.id, { name: 'Default key' }, now);
    return c.json({ merchant: merchantView(merchant), apiKey: { ...apiKeyView(record, now), key } }, 201);
  });

  // Dashboard key creation is not bound by the API's 10-active-keys limit, and may set any expiresAt.
  app.post('/api-keys', async (c) => {
    const merchantId = merchantFromBearer(c, deps);
    const now = clock.now();
    const input = validateApiKeyInput(await readJsonBody(c, { optional: true }), now, { allowExpiresAt: true });
    const { record, key } = keys.create(merchantId, input, now);
    return c.json({ ...apiKeyView(record, now), key }, 201);
  });

  app.post('/payments', async (c) => {
    const merchantId = merchantFromBearer(c, deps);
    const payment = payments.create(merchantId, await readJsonBody(c), 'dashboard');
    return c.json(retrieveView(payment, payUrl), 201);
  });

  app.post('/payouts', async (c) => {
    const merchantId = merchantFromBearer(c, deps);
    return c.json(payoutView(payouts.create(merchantId, await readJsonBody(c))), 201);
  });

  return app;
}
