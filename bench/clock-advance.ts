// A 35 h clock advance with three merchants, one of whose receivers never answers: how long the
// advance takes in real time, and when the other merchants' attempts arrive. Before the advance was
// decoupled from webhook I/O it waited on every attempt it fired, one after another (60 s here,
// with retries 10 s apart). Run: npx tsx bench/clock-advance.ts
// The simulator runs in this process (no chains), the receivers are real HTTP servers on loopback.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createSimulator } from '@stablepay/simulator';

const ADVANCE_MS = 35 * 3_600_000;
const EVENTS_PER_MERCHANT = 2;
/** Cumulative minutes of the spec's 7 attempts. */
const SCHEDULE_MIN = [0, 1, 6, 36, 156, 636, 2076];
/** An attempt counts as delayed when it arrives more than this long after the advance was sent. */
const DELAYED_AFTER_MS = 1_000;

interface Arrival {
  atMs: number;
  attemptTimestamp: number;
  body: string;
}

interface Receiver {
  url: string;
  arrivals: Arrival[];
  server: Server;
}

async function receiver(answer: boolean): Promise<Receiver> {
  const arrivals: Arrival[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      arrivals.push({
        atMs: performance.now(),
        attemptTimestamp: Number(req.headers['x-simulator-attempt-timestamp']),
        body: Buffer.concat(chunks).toString(),
      });
      // The dead receiver holds the connection open and never answers: each attempt costs 10 s.
      if (answer) res.writeHead(500).end('down for maintenance');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`, arrivals, server };
}

async function waitUntil(predicate: () => boolean, timeoutMs: number): Promise<void> {
  const deadline = performance.now() + timeoutMs;
  while (!predicate() && performance.now() < deadline) await new Promise((r) => setTimeout(r, 5));
}

const sim = createSimulator({ logger: { info() {}, error() {} } });
const call = async (path: string, body: unknown, key?: string) => {
  const res = await sim.app.request(path, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(key ? { authorization: `Bearer ${key}` } : {}) },
    body: JSON.stringify(body),
  });
  return { status: res.status, json: (await res.json()) as Record<string, any> };
};

const receivers = [await receiver(false), await receiver(true), await receiver(true)];
const names = ['dead (never answers)', 'merchant B (answers 500)', 'merchant C (answers 500)'];
for (const r of receivers) {
  const { json } = await call('/control/v1/merchants', { name: 'bench' });
  const key = json.apiKey.key as string;
  if ((await call('/v1/webhooks', { url: r.url }, key)).status !== 201) throw new Error('webhook setup failed');
  for (let i = 0; i < EVENTS_PER_MERCHANT; i++) {
    const created = await call('/v1/payments', { amount: '10.00', currency: 'USD' }, key);
    const res = await sim.app.request(`/v1/payments/${created.json.id}`, { method: 'DELETE', headers: { authorization: `Bearer ${key}` } });
    if (res.status !== 200) throw new Error(`cancel failed: ${res.status}`);
  }
}
// Every merchant's first attempts are out (the dead one's are hanging) before the clock moves.
await waitUntil(() => receivers.every((r) => r.arrivals.length >= EVENTS_PER_MERCHANT), 5_000);

const sent = performance.now();
const advanced = await call('/control/v1/clock/advance', { ms: ADVANCE_MS });
const advanceMs = performance.now() - sent;
const live = receivers.slice(1);
const expected = EVENTS_PER_MERCHANT * SCHEDULE_MIN.length;
await waitUntil(() => live.every((r) => r.arrivals.length >= expected), 10_000);

const rows = receivers.map((r, i) => {
  const after = r.arrivals.filter((a) => a.atMs >= sent);
  const byBody = new Map<string, Arrival[]>();
  for (const a of r.arrivals) byBody.set(a.body, [...(byBody.get(a.body) ?? []), a]);
  const onSchedule = [...byBody.values()].every((list) =>
    list.every((a, n) => (a.attemptTimestamp - list[0]!.attemptTimestamp) / 60 === SCHEDULE_MIN[n]),
  );
  return {
    receiver: names[i],
    attempts: r.arrivals.length,
    'after advance': after.length,
    'last arrival (ms after advance sent)': after.length ? Math.round(Math.max(...after.map((a) => a.atMs - sent))) : null,
    delayed: after.filter((a) => a.atMs - sent > DELAYED_AFTER_MS).length,
    'virtual times on schedule': onSchedule,
  };
});
console.log(`advance: ${advanced.status} ${JSON.stringify(advanced.json)}`);
console.log(`35 h advance answered in ${advanceMs.toFixed(1)} ms (real time), Node ${process.version}`);
console.table(rows);
const delayed = rows.slice(1).reduce((n, r) => n + r.delayed, 0);
const missing = live.reduce((n, r) => n + Math.max(0, expected - r.arrivals.length), 0);
console.log(
  `other merchants: ${expected * live.length - missing} of ${expected * live.length} attempts arrived, ${delayed} delayed (> ${DELAYED_AFTER_MS} ms after the advance was sent)`,
);

await sim.close();
for (const r of receivers) r.server.closeAllConnections();
await Promise.all(receivers.map((r) => new Promise((resolve) => r.server.close(resolve))));
