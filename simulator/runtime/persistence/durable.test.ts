// Durable mode in process: what a restart on the same directory brings back, the retry that fell due while the
// simulator was down, torn and corrupted journals, compaction, reset. The SIGKILL test is crash.test.ts.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createSimulator, type Simulator } from '../app.ts';
import type { FetchLike } from '../../core/webhooks/http-post.ts';
import { appendRaw, Journal, JOURNAL_FILE, SNAPSHOT_FILE, StateDirError } from './journal.ts';
import { startServer } from '../server.ts';

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

async function open(options: { fetch?: FetchLike; warn?: (m: string) => void } = {}): Promise<{ sim: Simulator; journal: Journal }> {
  const journal = await Journal.open(dir, options.warn ? { warn: options.warn } : {});
  const sim = createSimulator({
    defaultApiKey: KEY,
    logger: quiet,
    durable: journal,
    webhookOptions: options.fetch ? { fetch: options.fetch } : {},
  });
  return { sim, journal };
}

async function stop({ sim, journal }: { sim: Simulator; journal: Journal }): Promise<void> {
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
    // Only the key's hash is on disk; the webhook secret is (every attempt signs with it).
    const onDisk = readFileSync(join(dir, JOURNAL_FILE), 'utf8');
    expect(onDisk).not.toContain(KEY);
    expect(onDisk).toContain(secret);

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
    const journal = await Journal.open(dir);
    const { offsetMs } = (journal.records('clock').get('offset') as { offsetMs: number } | undefined) ?? { offsetMs: 0 };
    journal.put('clock', 'offset', { offsetMs: offsetMs + 2 * 3_600_000 });
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

  it('compaction writes a snapshot and empties the log; the restart reads the same state from it', async () => {
    const first = await open();
    for (let i = 0; i < 20; i += 1) {
      await first.sim.app.request('/v1/payments', {
        method: 'POST',
        headers: json,
        body: JSON.stringify({ amount: String(i + 1), currency: 'USD' }),
      });
    }
    await first.journal.compact();
    expect(readFileSync(join(dir, JOURNAL_FILE), 'utf8')).toBe('');
    await first.sim.app.request('/v1/payments', { method: 'POST', headers: json, body: JSON.stringify({ amount: '99', currency: 'USD' }) });
    await stop(first);
    const second = await open();
    try {
      expect(second.sim.restored?.payments).toBe(21);
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

describe('the journal', () => {
  it('commit() resolves once the lines are in the file; a put made while a write is in flight follows on its own', async () => {
    const journal = await Journal.open(dir);
    try {
      journal.put('thing', 'a', { n: 1 });
      const first = journal.commit();
      journal.put('thing', 'b', { n: 2 });
      await first;
      expect(readFileSync(join(dir, JOURNAL_FILE), 'utf8')).toContain('"i":"a"');
      // Nobody commits again: the next tick does.
      await expect.poll(() => readFileSync(join(dir, JOURNAL_FILE), 'utf8'), { timeout: 2000 }).toContain('"i":"b"');
      journal.put('thing', 'a', { n: 3 });
      journal.delete('thing', 'b');
      await journal.commit();
    } finally {
      await journal.close();
    }
    const again = await Journal.open(dir);
    try {
      expect([...again.records('thing')]).toEqual([['a', { n: 3 }]]);
    } finally {
      await again.close();
    }
  });
});

describe('the journal: a commit is all or nothing', () => {
  /** Two commits: `a` alone, then `a`, `b`, `c` together (one append). Returns the file and where the second starts. */
  async function twoCommits(): Promise<{ text: string; secondStart: number }> {
    const journal = await Journal.open(dir);
    journal.put('thing', 'a', { n: 1 });
    await journal.commit();
    const secondStart = readFileSync(join(dir, JOURNAL_FILE), 'utf8').length;
    journal.put('thing', 'a', { n: 2 });
    journal.put('thing', 'b', { n: 2, pad: 'x'.repeat(50) });
    journal.delete('thing', 'c');
    journal.put('thing', 'c', { n: 2 });
    await journal.commit();
    await journal.close();
    return { text: readFileSync(join(dir, JOURNAL_FILE), 'utf8'), secondStart };
  }

  it('a write cut short anywhere inside an append (at a line boundary too) drops the whole append, never part of it', async () => {
    const { text, secondStart } = await twoCommits();
    expect(text.slice(secondStart).split('\n').filter(Boolean)).toHaveLength(3);
    // Every cut from the second append's first byte to one before its end, line boundaries included.
    for (let cut = secondStart; cut < text.length; cut += 1) {
      writeFileSync(join(dir, JOURNAL_FILE), text.slice(0, cut));
      const warnings: string[] = [];
      const journal = await Journal.open(dir, { warn: (m) => warnings.push(m) });
      const things = Object.fromEntries(journal.records('thing'));
      await journal.close();
      expect(things, `cut at byte ${cut}`).toEqual({ a: { n: 1 } });
      expect(warnings, `cut at byte ${cut}`).toHaveLength(cut === secondStart ? 0 : 1);
      // The dropped part is gone from the file, so the next append starts on a whole one.
      expect(readFileSync(join(dir, JOURNAL_FILE), 'utf8')).toBe(text.slice(0, secondStart));
    }
    writeFileSync(join(dir, JOURNAL_FILE), text);
    const whole = await Journal.open(dir);
    expect(Object.fromEntries(whole.records('thing'))).toEqual({ a: { n: 2 }, b: { n: 2, pad: 'x'.repeat(50) }, c: { n: 2 } });
    await whole.close();
  });

  it('an expiry and the delivery of its payment.expired are one commit: a journal cut anywhere keeps both or neither', async () => {
    const hook = receiver();
    const first = await open({ fetch: hook.fetch });
    await first.sim.app.request('/v1/webhooks', {
      method: 'POST',
      headers: json,
      body: JSON.stringify({ url: 'http://receiver.test/hooks' }),
    });
    for (let i = 0; i < 40; i += 1) {
      const created = await first.sim.app.request('/v1/payments', {
        method: 'POST',
        headers: json,
        body: JSON.stringify({ amount: '100', currency: 'USD', title: 'x'.repeat(200) }),
      });
      expect(created.status).toBe(201);
    }
    const before = readFileSync(join(dir, JOURNAL_FILE), 'utf8').length;
    // One advance expires all 40: their new versions and 40 deliveries go out in appends of several pages.
    await first.sim.clock.advance(2 * 3_600_000);
    await first.journal.commit();
    await first.sim.webhooks.idle();
    await stop(first);
    const text = readFileSync(join(dir, JOURNAL_FILE), 'utf8');
    expect(text.length - before).toBeGreaterThan(3 * 4096);
    const lineEnds = [...text.slice(before).matchAll(/\n/g)].map((m) => before + (m.index as number) + 1);
    let sawExpired = 0;
    // Every line boundary, and cuts at 4 KiB pages, as a SIGKILL leaves them.
    const cuts = new Set([
      ...lineEnds,
      ...Array.from({ length: Math.ceil(text.length / 4096) }, (_, n) => n * 4096).filter((c) => c > before),
    ]);
    for (const cut of cuts) {
      writeFileSync(join(dir, JOURNAL_FILE), text.slice(0, cut));
      const journal = await Journal.open(dir, { warn: () => undefined });
      const payments = [...journal.records('payment').values()] as { id: string; status: string }[];
      const deliveries = [...journal.records('delivery').values()] as { event: string; paymentId: string | null }[];
      await journal.close();
      const expired = payments.filter((p) => p.status === 'EXPIRED');
      sawExpired = Math.max(sawExpired, expired.length);
      for (const p of expired) {
        expect(
          deliveries.some((d) => d.event === 'payment.expired' && d.paymentId === p.id),
          `cut at byte ${cut}: ${p.id} is EXPIRED without its delivery`,
        ).toBe(true);
      }
    }
    expect(sawExpired).toBe(40);
  });

  it('lines written before commits were marked still load, each as a commit of its own', async () => {
    writeFileSync(join(dir, JOURNAL_FILE), '{"s":1,"k":"thing","i":"a","v":{"n":1}}\n{"s":2,"k":"thing","i":"b","v":{"n":1}}\n');
    const journal = await Journal.open(dir);
    journal.put('thing', 'c', { n: 1 });
    await journal.commit();
    await journal.close();
    const again = await Journal.open(dir);
    expect(Object.fromEntries(again.records('thing'))).toEqual({ a: { n: 1 }, b: { n: 1 }, c: { n: 1 } });
    await again.close();
  });

  it('an append whose lines disagree on where it ends is refused with the file and line', async () => {
    writeFileSync(join(dir, JOURNAL_FILE), '{"s":1,"e":2,"k":"thing","i":"a","v":{}}\n{"s":2,"e":3,"k":"thing","i":"b","v":{}}\n');
    await expect(Journal.open(dir)).rejects.toThrow(`${join(dir, JOURNAL_FILE)} is corrupted at line 2 (append boundary out of order)`);
  });
});

describe('durable mode: damaged state dirs', () => {
  async function seed(): Promise<void> {
    const first = await open();
    await first.sim.app.request('/v1/payments', {
      method: 'POST',
      headers: json,
      body: JSON.stringify({ amount: '100', currency: 'USD' }),
    });
    await stop(first);
  }

  it('a torn last line (a write cut short) is dropped and reported once; the rest loads', async () => {
    await seed();
    appendRaw(dir, '{"s":999,"k":"payment","i":"x","v":{"id":"x","sta');
    const warnings: string[] = [];
    const reopened = await open({ warn: (m) => warnings.push(m) });
    try {
      expect(reopened.sim.restored?.payments).toBe(1);
      expect(warnings).toHaveLength(1);
      expect(warnings[0]).toMatch(/incomplete last write of .*journal\.jsonl \(1 line from line \d+/);
      expect(readFileSync(join(dir, JOURNAL_FILE), 'utf8').endsWith('\n')).toBe(true);
    } finally {
      await stop(reopened);
    }
    // Dropped for good: the next open reports nothing.
    const warnings2: string[] = [];
    const again = await open({ warn: (m) => warnings2.push(m) });
    await stop(again);
    expect(warnings2).toEqual([]);
  });

  it('a corrupted line before the last is refused with the file and line', async () => {
    await seed();
    const path = join(dir, JOURNAL_FILE);
    const lines = readFileSync(path, 'utf8').split('\n');
    lines[1] = '{not json';
    writeFileSync(path, lines.join('\n'));
    await expect(Journal.open(dir)).rejects.toThrow(StateDirError);
    await expect(Journal.open(dir)).rejects.toThrow(`${path} is corrupted at line 2`);
  });

  it('a corrupted snapshot is refused with the file and line', async () => {
    await seed();
    const j = await Journal.open(dir);
    await j.compact();
    await j.close();
    const path = join(dir, SNAPSHOT_FILE);
    writeFileSync(path, `${readFileSync(path, 'utf8')}garbage\n`);
    await expect(Journal.open(dir)).rejects.toThrow(/snapshot\.jsonl is corrupted at line \d+/);
  });
});

describe('durable mode over HTTP', () => {
  it('reset (POST /control/v1/reset) empties the state dir too', async () => {
    const server = await startServer({ port: 0, defaultApiKey: KEY, logger: quiet, stateDir: dir });
    try {
      await fetch(`${server.url}/v1/payments`, { method: 'POST', headers: json, body: JSON.stringify({ amount: '100', currency: 'USD' }) });
      expect(readFileSync(join(dir, JOURNAL_FILE), 'utf8')).toContain('"k":"payment"');
      const reset = await fetch(`${server.url}/control/v1/reset`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: '{}',
      });
      expect(reset.status).toBe(200);
      expect(readFileSync(join(dir, JOURNAL_FILE), 'utf8')).not.toContain('"k":"payment"');
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
