// Durable mode in process: what a restart on the same directory brings back, the retry that fell due while the
// simulator was down, directories that cannot be used, reset. The database's own guarantees (one transaction per
// commit, a failed commit kept and written later, forward-only payments) are sql-durable-state.test.ts; the SIGKILL
// test is crash.test.ts.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createSimulator, type Simulator } from '../app.ts';
import type { FetchLike } from '../../core/webhooks/http-post.ts';
import { DatabaseOpenError, openStateDir, type SqlDurableState, StateDirError } from './index.ts';
import { startServer } from '../server.ts';
import { everyByte } from '../../test-support/every-byte.ts';

// Each open of a PGlite database takes seconds on a loaded 2-core machine (a test opens it up to three times).
vi.setConfig({ testTimeout: 240_000, hookTimeout: 240_000 });

const KEY = 'pk_durable12345678';
const quiet = { info: () => undefined, error: () => undefined };
const json = { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' };

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'stablepay-durable-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

/** A receiver that answers each call with the next status of `statuses` (then 200), recording the bodies. */
function receiver(statuses: number[] = []) {
  const bodies: string[] = [];
  const fetch = (async (_url: unknown, init: { body?: unknown } | undefined) => {
    bodies.push(String(init?.body));
    return new Response('ok', { status: statuses.shift() ?? 200 });
  }) as unknown as FetchLike;
  return { bodies, fetch };
}

/** Every record the database holds, as text. */
async function storedText(): Promise<string> {
  const state = await openStateDir(dir);
  try {
    const kinds = ['merchant', 'key', 'endpoint', 'payment', 'delivery', 'payout', 'transaction', 'setting', 'clock', 'meta'];
    return kinds.map((kind) => JSON.stringify([...state.records(kind).values()])).join('\n');
  } finally {
    await state.close();
  }
}

async function open(options: { fetch?: FetchLike } = {}): Promise<{ sim: Simulator; journal: SqlDurableState }> {
  const journal = await openStateDir(dir);
  const sim = createSimulator({
    defaultApiKey: KEY,
    logger: quiet,
    durable: journal,
    webhookOptions: options.fetch ? { fetch: options.fetch } : {},
  });
  return { sim, journal };
}

async function stop({ sim, journal }: { sim: Simulator; journal: SqlDurableState }): Promise<void> {
  await sim.close();
  await journal.close();
}

describe('durable mode: a restart on the same state dir', () => {
  it('brings back merchants, keys (hashed), payments, endpoints with their secret, deliveries, payouts and the clock offset', async () => {
    const hook = receiver();
    const first = await open({ fetch: hook.fetch });
    const created = await first.sim.app.request('/v1/payments', {
      method: 'POST',
      headers: json,
      body: JSON.stringify({ amount: '100', currency: 'USD', externalId: 'order-1' }),
    });
    expect(created.status).toBe(201);
    const payment = (await created.json()) as { id: string };
    const endpoint = await first.sim.app.request('/v1/webhooks', {
      method: 'POST',
      headers: json,
      body: JSON.stringify({ url: 'http://receiver.test/hooks' }),
    });
    const secret = ((await endpoint.json()) as { secret: string }).secret;
    expect((await first.sim.app.request(`/v1/payments/${payment.id}`, { method: 'DELETE', headers: json })).status).toBe(200);
    const payout = first.sim.payouts.create(first.sim.defaultMerchant.id, {
      amount: '10',
      currency: 'USD',
      recipientAddress: '0x52908400098527886E0F7030069857D2E4169EE7',
    });
    await first.sim.clock.advance(90_000);
    await first.sim.webhooks.idle();
    const offset = first.sim.clock.offsetMs;
    const merchantId = first.sim.defaultMerchant.id;
    const analytics = async (sim: Simulator) =>
      (await sim.app.request('/v1/analytics?from=2000-01-01T00:00:00Z&to=2100-01-01T00:00:00Z', { headers: json })).json();
    const analyticsBefore = await analytics(first.sim);
    await stop(first);
    // Only the key's hash is on disk (in no file of the database, its log included); the webhook secret is (every
    // attempt signs with it).
    expect(everyByte(dir)).not.toContain(KEY);
    const stored = await storedText();
    expect(stored).toContain(secret);
    expect(stored).not.toContain(KEY);

    const second = await open({ fetch: hook.fetch });
    try {
      expect(second.sim.defaultMerchant.id).toBe(merchantId);
      expect(second.sim.clock.offsetMs).toBeGreaterThanOrEqual(offset);
      // Analytics reads tallies fed by payment changes: the restored payments are counted as before the restart.
      expect(await analytics(second.sim)).toEqual(analyticsBefore);
      expect(JSON.stringify(analyticsBefore)).toContain('"CANCELLED":1');
      const got = await second.sim.app.request(`/v1/payments/${payment.id}`, { headers: json });
      expect(((await got.json()) as { status: string }).status).toBe('CANCELLED');
      // externalId order-1 is free again (the cancelled payment released it) and the index knows it.
      const again = await second.sim.app.request('/v1/payments', {
        method: 'POST',
        headers: json,
        body: JSON.stringify({ amount: '5', currency: 'USD', externalId: 'order-1' }),
      });
      expect(again.status).toBe(201);
      const deliveries = second.sim.webhooks.deliveries(merchantId);
      expect(deliveries.map((d) => `${d.event}:${d.status}`).sort()).toEqual(['payment.cancelled:succeeded', 'payout.created:succeeded']);
      expect(second.sim.payouts.find(payout.id)?.status).toBe(payout.status);
      const ep = await second.sim.app.request('/v1/webhooks', { headers: json });
      expect(((await ep.json()) as { secretLast4: string }).secretLast4).toBe(secret.slice(-4));
      expect(second.sim.restored).toMatchObject({ merchants: 1, keys: 1, payments: 1, payouts: 1, deliveries: 2, pendingDeliveries: 0 });
    } finally {
      await stop(second);
    }
  });

  it('a retry that fell due while the simulator was down goes out at start; an expiry too', async () => {
    const hook = receiver([500]);
    const first = await open({ fetch: hook.fetch });
    await first.sim.app.request('/v1/webhooks', {
      method: 'POST',
      headers: json,
      body: JSON.stringify({ url: 'http://receiver.test/hooks' }),
    });
    const created = await first.sim.app.request('/v1/payments', {
      method: 'POST',
      headers: json,
      body: JSON.stringify({ amount: '100', currency: 'USD' }),
    });
    const payment = (await created.json()) as { id: string };
    await first.sim.app.request(`/v1/payments/${payment.id}`, { method: 'DELETE', headers: json });
    const other = (await (
      await first.sim.app.request('/v1/payments', { method: 'POST', headers: json, body: JSON.stringify({ amount: '7', currency: 'USD' }) })
    ).json()) as { id: string };
    await first.sim.webhooks.idle();
    const [pending] = first.sim.webhooks.deliveries(first.sim.defaultMerchant.id);
    expect(pending?.status).toBe('pending');
    expect(pending?.attempts).toHaveLength(1);
    await stop(first);

    // Two hours pass while it is down (the clock is wall time + offset; we move the stored offset instead of waiting).
    const journal = await openStateDir(dir);
    const stored = (journal.records('clock').get('offsets') as { sandboxMs: number; clocks: Record<string, number> } | undefined) ?? {
      sandboxMs: 0,
      clocks: {},
    };
    journal.put('clock', 'offsets', { ...stored, sandboxMs: stored.sandboxMs + 2 * 3_600_000 });
    await journal.close();

    const second = await open({ fetch: hook.fetch });
    try {
      await new Promise((resolve) => setTimeout(resolve, 50));
      await second.sim.webhooks.idle();
      const deliveries = second.sim.webhooks.deliveries(second.sim.defaultMerchant.id);
      const cancelled = deliveries.find((d) => d.event === 'payment.cancelled');
      expect(cancelled?.status).toBe('succeeded');
      expect(cancelled?.attempts.map((a) => a.statusCode)).toEqual([500, 200]);
      expect(second.sim.payments.store.get(other.id)?.status).toBe('EXPIRED');
      expect(deliveries.some((d) => d.event === 'payment.expired' && d.paymentId === other.id)).toBe(true);
    } finally {
      await stop(second);
    }
  });
});

describe('durable mode: clocks of their own', () => {
  it("a merchant's clock, a test clock and who lives on it go on after a restart; nobody else's time moved", async () => {
    const first = await open();
    const other = await first.sim.app.request('/control/v1/merchants', {
      method: 'POST',
      body: '{}',
      headers: { 'content-type': 'application/json' },
    });
    const otherKey = ((await other.json()) as { apiKey: { key: string } }).apiKey.key;
    const clock = (await (await first.sim.app.request('/control/v1/clocks', { method: 'POST' })).json()) as { id: string };
    const onClock = await first.sim.app.request('/control/v1/merchants', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ testClock: clock.id }),
    });
    const onClockKey = ((await onClock.json()) as { apiKey: { key: string } }).apiKey.key;
    const advance = (path: string, ms: number, key?: string) =>
      first.sim.app.request(path, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...(key ? { authorization: `Bearer ${key}` } : {}) },
        body: JSON.stringify({ ms }),
      });
    expect((await advance('/control/v1/clock/advance', 3 * 3_600_000, otherKey)).status).toBe(200);
    expect((await advance(`/control/v1/clocks/${clock.id}/advance`, 5 * 86_400_000)).status).toBe(200);
    await stop(first);

    const second = await open();
    try {
      const offsetOf = async (key?: string) =>
        (
          (await (
            await second.sim.app.request('/control/v1/clock', { headers: key ? { authorization: `Bearer ${key}` } : {} })
          ).json()) as { offsetMs: number }
        ).offsetMs;
      expect(await offsetOf(otherKey)).toBeGreaterThanOrEqual(3 * 3_600_000);
      expect(await offsetOf(onClockKey)).toBeGreaterThanOrEqual(5 * 86_400_000);
      expect(await offsetOf(KEY)).toBe(0);
      expect(await offsetOf()).toBe(0);
      // The test clock is there to be moved again, with its merchant on it.
      expect(second.sim.clock.hasTestClock(clock.id)).toBe(true);
      const moved = await second.sim.app.request(`/control/v1/clocks/${clock.id}/advance`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ ms: 86_400_000 }),
      });
      expect(moved.status).toBe(200);
      expect(await offsetOf(onClockKey)).toBeGreaterThanOrEqual(6 * 86_400_000);
      expect(await offsetOf(otherKey)).toBeLessThan(86_400_000);
    } finally {
      await stop(second);
    }
  });

  it('a state dir written with one clock offset (before per-merchant clocks) puts it back on the sandbox clock', async () => {
    const journal = await openStateDir(dir);
    journal.put('clock', 'offset', { offsetMs: 7_200_000 });
    await journal.commit();
    await journal.close();
    const second = await open();
    try {
      expect(second.sim.clock.offsetMs).toBeGreaterThanOrEqual(7_200_000);
    } finally {
      await stop(second);
    }
  });
});

describe('durable mode: control-API settings', () => {
  it('exchange-rate overrides and rate-limit settings set through the control API are back after a restart, over the configured ones', async () => {
    const first = await open();
    const put = (sim: Simulator, path: string, body: unknown) =>
      sim.app.request(path, { method: 'PUT', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
    const before = ((await (await first.sim.app.request('/control/v1/exchange-rates')).json()) as { rates: Record<string, string> }).rates;
    expect((await put(first.sim, '/control/v1/exchange-rates', { rates: { EUR: '1.234567' } })).status).toBe(200);
    expect((await put(first.sim, '/control/v1/rate-limit', { limit: 7, windowSeconds: 30 })).status).toBe(200);
    await stop(first);

    const second = await open();
    try {
      const rates = ((await (await second.sim.app.request('/control/v1/exchange-rates')).json()) as { rates: Record<string, string> })
        .rates;
      expect(rates).toEqual({ ...before, EUR: '1.234567' });
      expect(await (await second.sim.app.request('/control/v1/rate-limit')).json()).toEqual({ limit: 7, windowSeconds: 30 });
      // The limit is in force on the API (counters start afresh).
      const created = await second.sim.app.request('/v1/payments', {
        method: 'POST',
        headers: json,
        body: JSON.stringify({ amount: '1', currency: 'USD' }),
      });
      expect(created.headers.get('x-ratelimit-limit')).toBe('7');
      expect(created.headers.get('x-ratelimit-remaining')).toBe('6');
    } finally {
      await stop(second);
    }
  });
});

describe('durable mode: state dirs that cannot be used', () => {
  it('a file, a journal of an earlier version, and a db/ that is not a database are each one sentence', async () => {
    const file = join(dir, 'a-file');
    writeFileSync(file, 'x');
    await expect(openStateDir(file)).rejects.toThrow(new StateDirError(`state dir ${file} is not a directory`));
    const old = join(dir, 'old');
    mkdirSync(old);
    writeFileSync(join(old, 'journal.jsonl'), '');
    await expect(openStateDir(old)).rejects.toThrow(StateDirError);
    await expect(openStateDir(old)).rejects.toThrow(/holds journal\.jsonl, the journal of a version before the database/);
    const damaged = join(dir, 'damaged');
    mkdirSync(join(damaged, 'db'), { recursive: true });
    writeFileSync(join(damaged, 'db', 'postgresql.conf'), 'x');
    await expect(openStateDir(damaged)).rejects.toThrow(DatabaseOpenError);
    await expect(openStateDir(damaged)).rejects.toThrow(/^cannot open the database in .*damaged\/db: it is not a database directory/);
  });

  it('a database directory with a file of it damaged does not start: one sentence, no stack', async () => {
    const first = await open();
    await stop(first);
    // The control file tells Postgres where to start reading: without it the cluster cannot be opened.
    writeFileSync(join(dir, 'db', 'global', 'pg_control'), 'not a control file');
    const error = await openStateDir(dir).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(DatabaseOpenError);
    expect((error as Error).message).toMatch(/^cannot open the database in .*\/db: /);
    expect((error as Error).message).not.toContain('\n');
  });
});

describe('durable mode over HTTP', () => {
  it('reset (POST /control/v1/reset) empties the state dir too', async () => {
    const server = await startServer({ port: 0, defaultApiKey: KEY, logger: quiet, stateDir: dir });
    try {
      await fetch(`${server.url}/v1/payments`, { method: 'POST', headers: json, body: JSON.stringify({ amount: '100', currency: 'USD' }) });
      const reset = await fetch(`${server.url}/control/v1/reset`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: '{}',
      });
      expect(reset.status).toBe(200);
    } finally {
      await server.close();
    }
    const again = await open();
    try {
      expect(again.sim.restored?.payments).toBe(0);
    } finally {
      await stop(again);
    }
  });
});
