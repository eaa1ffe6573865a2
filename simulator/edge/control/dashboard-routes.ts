// Control API: what a merchant would do in the dashboard — sign up, make keys (even already
// expired ones), create payment links (emits payment.created) and payouts (emits payout.created).
import { Hono } from 'hono';
import { apiKeyView } from '../../core/api-keys/api-key.ts';
import { validateApiKeyInput } from '../../core/api-keys/validate-api-key.ts';
import { notFound } from '../http/errors.ts';
import { readJsonBody } from '../http/json-body.ts';
import type { MerchantSettings } from '../../core/merchants/merchant-store.ts';
import { merchantView } from '../../core/merchants/merchant-store.ts';
import { retrieveView } from '../../core/payments/views.ts';
import { payoutView } from '../../core/payouts/types.ts';
import { addressProblem, charLength, isPlainObject, Problems, rejectUnknownFields } from '../../core/validation/index.ts';
import type { ApiKeyWithSecret, MerchantCreated } from '@stablepay/contract/types';
import type { ControlDeps } from './control-deps.ts';
import { merchantFromBearer } from './control-deps.ts';

function redirectUrlProblem(value: unknown): string | undefined {
  if (value === null) return undefined;
  if (typeof value !== 'string' || value.length > 2048 || !/^https?:\/\/[^\s/?#]+/.test(value) || /[\s\u0000-\u001f]/.test(value)) {
    return 'redirectUrl must be an absolute http or https URL of at most 2048 characters, or null';
  }
  try {
    new URL(value);
    return undefined;
  } catch {
    return 'redirectUrl must be an absolute http or https URL of at most 2048 characters, or null';
  }
}

/** Dashboard settings of a merchant; `partial` is the update form, where at least one field is needed. */
function parseMerchantInput(body: unknown, partial = false): MerchantSettings {
  const problems = new Problems();
  if (!isPlainObject(body) || (partial && Object.keys(body).length === 0)) {
    problems.add(
      [],
      partial
        ? 'Request body must be a JSON object with at least one of name, walletAddress, redirectUrl'
        : 'Request body must be a JSON object',
    );
    problems.throwIfAny();
  }
  const input = body as Record<string, unknown>;
  rejectUnknownFields(input, ['name', 'walletAddress', 'redirectUrl'], problems);
  if (input.redirectUrl !== undefined) {
    const problem = redirectUrlProblem(input.redirectUrl);
    if (problem) problems.add(['redirectUrl'], problem);
  }
  if (input.name !== undefined && input.name !== null && (typeof input.name !== 'string' || charLength(input.name) > 100)) {
    problems.add(['name'], 'name must be a string of at most 100 characters');
  }
  if (input.walletAddress !== undefined) {
    const problem = addressProblem(input.walletAddress);
    if (problem) problems.add(['walletAddress'], problem.replace(/^address/, 'walletAddress'));
  }
  problems.throwIfAny();
  return {
    ...(input.name !== undefined || !partial ? { name: (input.name as string | null | undefined) ?? null } : {}),
    ...(typeof input.walletAddress === 'string' ? { walletAddress: input.walletAddress } : {}),
    ...(input.redirectUrl !== undefined ? { redirectUrl: input.redirectUrl as string | null } : {}),
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
    return c.json({ merchant: merchantView(merchant), apiKey: { ...apiKeyView(record, now), key } } satisfies MerchantCreated, 201);
  });

  app.put('/merchant', async (c) => {
    const merchantId = merchantFromBearer(c, deps);
    const settings = parseMerchantInput(await readJsonBody(c), true);
    const merchant = merchants.update(merchantId, settings);
    if (!merchant) throw notFound('Merchant');
    return c.json(merchantView(merchant), 200);
  });

  // Dashboard key creation is not bound by the API's 10-active-keys limit, and may set any expiresAt.
  app.post('/api-keys', async (c) => {
    const merchantId = merchantFromBearer(c, deps);
    const now = clock.now();
    const input = validateApiKeyInput(await readJsonBody(c, { optional: true }), now, { allowExpiresAt: true });
    const { record, key } = keys.create(merchantId, input, now);
    return c.json({ ...apiKeyView(record, now), key } satisfies ApiKeyWithSecret, 201);
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
