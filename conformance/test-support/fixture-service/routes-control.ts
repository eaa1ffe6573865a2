// The part of the control API (conformance/control-api.yaml) the suite uses: the clock, extra merchants and keys,
// acting as the customer and the chain on a payment, the rate limit, dashboard creates of payments and payouts.
// Served only when the fixture is started with `control: true`.
import { randomUUID } from 'node:crypto';
import { Hono } from 'hono';
import { emit, fireDue } from './deliveries.ts';
import { jsonBody, problem, requireKey, validation, type Env } from './http.ts';
import { initiate, retrieveView } from './payments.ts';
import { createFromBody, expirePayments } from './routes-payments.ts';
import { payoutView } from './routes-reports.ts';
import { newKey, type FixtureState, type Payment, type Payout, type Status } from './state.ts';

/**
 * Moves time forward, firing what falls due in order at its own due time (an attempt due at T is stamped T): payments
 * expire and webhook attempts start on the way.
 */
export function advance(state: FixtureState, ms: number): number {
  const target = state.now() + ms;
  let fired = 0;
  for (;;) {
    const next = Math.min(
      ...state.deliveries
        .filter((d) => d.status === 'pending' && d.nextAttemptAt !== null && d.nextAttemptAt <= target)
        .map((d) => d.nextAttemptAt!),
      ...[...state.payments.values()].filter((p) => p.status === 'ACTIVE' && p.expiresAt <= target).map((p) => p.expiresAt),
      ...[...state.payouts.values()].filter((p) => p.status === 'ACTIVE' && p.expiresAt <= target).map((p) => p.expiresAt),
      Infinity,
    );
    if (next === Infinity) break;
    if (next > state.now()) state.offsetMs += next - state.now();
    expirePayments(state, next);
    expirePayouts(state, next);
    fired += fireDue(state, next) + 1;
  }
  state.offsetMs += Math.max(0, target - state.now());
  return fired;
}

export function expirePayouts(state: FixtureState, now = state.now()): void {
  for (const payout of state.payouts.values()) {
    if (payout.status !== 'ACTIVE' || payout.expiresAt > now) continue;
    Object.assign(payout, { status: 'EXPIRED' as Status, updatedAt: payout.expiresAt });
    emit(state, payout.merchantId, 'payout.expired', { payoutId: payout.id, externalId: payout.externalId }, { payoutId: payout.id });
  }
}

function settle(state: FixtureState, payment: Payment): void {
  const now = state.now();
  Object.assign(payment, {
    status: 'SUCCESSFUL',
    txHash: `0x${randomUUID().replace(/-/g, '')}${randomUUID().replace(/-/g, '')}`,
    paidAt: now,
    gasActual: '0.010000',
    updatedAt: now,
    ledgerId: randomUUID(),
  });
  emit(
    state,
    payment.merchantId,
    'payment.completed',
    { paymentId: payment.id, externalId: payment.externalId },
    { paymentId: payment.id },
  );
}

export function controlRoutes(payUrl: () => string): Hono<Env> {
  const app = new Hono<Env>();
  const clock = (state: FixtureState) => ({ now: new Date(state.now()).toISOString(), offsetMs: state.offsetMs });
  app.get('/health', (c) => c.json({ status: 'ok', chains: [] }));
  app.get('/clock', (c) => c.json(clock(c.get('state'))));
  app.post('/clock/advance', async (c) => {
    const ms = ((await jsonBody(c)) as { ms?: unknown } | undefined)?.ms;
    if (typeof ms !== 'number' || ms < 0) return validation(c, [{ path: ['ms'], message: 'must be a number >= 0' }]);
    const firedTimers = advance(c.get('state'), ms);
    return c.json({ now: clock(c.get('state')).now, firedTimers });
  });
  app.post('/merchants', async (c) => {
    const state = c.get('state');
    const name = ((await jsonBody(c)) as { name?: string } | undefined)?.name ?? 'merchant';
    const { merchant, key, record } = state.addMerchant(name);
    const createdAt = new Date(record.createdAt).toISOString();
    const apiKey = {
      id: record.id,
      name: record.name,
      prefix: record.prefix,
      ipWhitelist: null,
      expiresAt: null,
      revokedAt: null,
      lastUsedAt: null,
      status: 'active',
      createdAt,
      key,
    };
    return c.json(
      {
        merchant: { id: merchant.id, name, walletAddress: '0x52908400098527886E0F7030069857D2E4169EE7', redirectUrl: null, createdAt },
        apiKey,
      },
      201,
    );
  });
  app.put('/rate-limit', async (c) => {
    const state = c.get('state');
    const body = (await jsonBody(c)) as { limit?: number; windowSeconds?: number } | undefined;
    state.rateLimit = body?.limit ?? state.rateLimit;
    state.rateWindowSeconds = body?.windowSeconds ?? state.rateWindowSeconds;
    state.windows.clear();
    return c.json({ limit: state.rateLimit, windowSeconds: state.rateWindowSeconds });
  });
  const payment = (c: import('hono').Context<Env>) => c.get('state').payments.get(c.req.param('id') ?? '');
  app.post('/payments/:id/submit', async (c) => {
    const state = c.get('state');
    const p = payment(c);
    if (!p) return problem(c, 404, 'Payment not found');
    expirePayments(state);
    const pair = (await jsonBody(c)) as { chainId?: number; token?: string } | undefined;
    if (p.status !== 'ACTIVE') return problem(c, 409, `Payment is ${p.status}`);
    if (!pair?.chainId || !pair.token || !p.acceptedChains.includes(pair.chainId) || !p.acceptedTokens.includes(pair.token))
      return validation(c, [{ path: [], message: 'pair not accepted' }]);
    initiate(p, pair.chainId, pair.token, state.now());
    emit(state, p.merchantId, 'payment.processing', { paymentId: p.id, externalId: p.externalId }, { paymentId: p.id });
    return c.json(retrieveView(p, payUrl()));
  });
  app.post('/payments/:id/confirm', (c) => {
    const p = payment(c);
    if (!p) return problem(c, 404, 'Payment not found');
    if (p.status !== 'PROCESSING') return problem(c, 409, `Payment is ${p.status}`);
    settle(c.get('state'), p);
    return c.json(retrieveView(p, payUrl()));
  });
  app.post('/payments/:id/fail', (c) => {
    const state = c.get('state');
    const p = payment(c);
    if (!p) return problem(c, 404, 'Payment not found');
    if (p.status !== 'PROCESSING') return problem(c, 409, `Payment is ${p.status}`);
    // The fixture's own failure codes (not shown): whatever the caller asked for, its choice stands.
    const error = state.has('failed-without-error')
      ? null
      : { code: state.choices.failureCode, source: state.choices.failureSource, message: 'the transaction reverted' };
    Object.assign(p, { status: 'FAILED' as Status, error, updatedAt: state.now() });
    emit(state, p.merchantId, 'payment.failed', { paymentId: p.id, externalId: p.externalId }, { paymentId: p.id });
    return c.json(retrieveView(p, payUrl()));
  });
  app.post('/payments/:id/pay', async (c) => {
    const state = c.get('state');
    const p = payment(c);
    const pair = (await jsonBody(c)) as { chainId?: number; token?: string } | undefined;
    if (p?.status !== 'ACTIVE' || !pair?.chainId || !pair.token) return problem(c, 409, 'Payment cannot be paid');
    initiate(p, pair.chainId, pair.token, state.now());
    emit(state, p.merchantId, 'payment.processing', { paymentId: p.id, externalId: p.externalId }, { paymentId: p.id });
    settle(state, p);
    return c.json(retrieveView(p, payUrl()));
  });
  // Merchant-authenticated control actions: dashboard creates and further keys.
  const merchant = new Hono<Env>();
  merchant.use('*', requireKey());
  merchant.post('/payments', async (c) => {
    const made = createFromBody(c.get('state'), c.get('key').merchantId, await jsonBody(c), true);
    return made.payment ? c.json(retrieveView(made.payment, payUrl()), 201) : problem(c, made.status!, made.message!);
  });
  merchant.post('/api-keys', async (c) => {
    const state = c.get('state');
    const body = ((await jsonBody(c)) ?? {}) as { expiresAt?: string; expiresInDays?: number };
    const expiresAt = body.expiresAt
      ? Date.parse(body.expiresAt)
      : body.expiresInDays
        ? state.now() + body.expiresInDays * 86_400_000
        : null;
    const key = newKey();
    const record = state.addKey(c.get('key').merchantId, key, { expiresAt });
    const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());
    return c.json(
      {
        id: record.id,
        name: null,
        prefix: record.prefix,
        ipWhitelist: null,
        expiresAt: iso(expiresAt),
        revokedAt: null,
        lastUsedAt: null,
        status: 'active',
        createdAt: iso(record.createdAt),
        key,
      },
      201,
    );
  });
  merchant.post('/payouts', async (c) => {
    const state = c.get('state');
    const body = ((await jsonBody(c)) ?? {}) as Record<string, unknown>;
    const now = state.now();
    const payout: Payout = {
      id: randomUUID(),
      merchantId: c.get('key').merchantId,
      status: 'ACTIVE',
      amount: String(body.amount),
      currency: String(body.currency),
      recipientAddress: String(body.recipientAddress),
      externalId: (body.externalId as string | undefined) ?? null,
      chainId: null,
      token: null,
      txHash: null,
      expiresAt: body.expiresAt ? Date.parse(String(body.expiresAt)) : now + 3_600_000,
      createdAt: now,
      updatedAt: now,
    };
    state.payouts.set(payout.id, payout);
    emit(state, payout.merchantId, 'payout.created', { payoutId: payout.id, externalId: payout.externalId }, { payoutId: payout.id });
    return c.json(payoutView(payout), 201);
  });
  merchant.post('/payouts/:id/:action', async (c) => {
    const state = c.get('state');
    const payout = state.payouts.get(c.req.param('id'));
    if (!payout) return problem(c, 404, 'Payout not found');
    const to: Record<string, Status> = { submit: 'PROCESSING', confirm: 'SUCCESSFUL', fail: 'FAILED', cancel: 'CANCELLED' };
    const status = to[c.req.param('action')];
    if (!status) return problem(c, 404, 'Unknown action');
    const body = ((await jsonBody(c)) ?? {}) as { chainId?: number; token?: string };
    Object.assign(payout, {
      status,
      updatedAt: state.now(),
      ...(status === 'PROCESSING' ? { chainId: body.chainId ?? null, token: body.token ?? null } : {}),
    });
    const event = {
      PROCESSING: 'payout.processing',
      SUCCESSFUL: 'payout.completed',
      FAILED: 'payout.failed',
      CANCELLED: 'payout.cancelled',
    }[status as 'PROCESSING'];
    emit(state, payout.merchantId, event, { payoutId: payout.id, externalId: payout.externalId }, { payoutId: payout.id });
    return c.json(payoutView(payout));
  });
  app.route('/', merchant);
  return app;
}
