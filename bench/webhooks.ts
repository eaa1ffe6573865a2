// Webhook delivery throughput: N events emitted at once to local receivers, timed from the
// first emit until every delivery has succeeded. Run: npx tsx bench/webhooks.ts [events]
// The receivers run in a worker thread so their work does not share the service's event loop.
import { Worker } from 'node:worker_threads';
import { Hono } from 'hono';
import { VirtualClock } from '@stablepay/simulator/clock';
import type { AppEnv } from '@stablepay/simulator/http-context';
import { createWebhookService, DEFAULT_CONCURRENCY_PER_ORIGIN } from '@stablepay/simulator/webhooks';
import { webhookRoutes } from '@stablepay/simulator/webhook-routes';

const EVENTS = Number(process.argv[2] ?? 5_000);

const RECEIVER = `
const { parentPort, workerData } = require('node:worker_threads');
const http = require('node:http');
let received = 0;
const ports = [];
let pending = workerData.count;
for (let i = 0; i < workerData.count; i++) {
  const server = http.createServer((req, res) => {
    req.resume();
    req.on('end', () => { received++; res.writeHead(200, { 'content-length': '0' }); res.end(); });
  });
  server.listen(0, '127.0.0.1', () => {
    ports[i] = server.address().port;
    if (--pending === 0) parentPort.postMessage({ ports });
  });
}
parentPort.on('message', (m) => { if (m === 'count') parentPort.postMessage({ received }); });
`;

async function startReceivers(count: number): Promise<{ urls: string[]; received: () => Promise<number>; stop: () => Promise<number> }> {
  const worker = new Worker(RECEIVER, { eval: true, workerData: { count } });
  const { ports } = await new Promise<{ ports: number[] }>((resolve) => worker.once('message', resolve));
  const received = () =>
    new Promise<number>((resolve) => {
      worker.once('message', (m: { received: number }) => resolve(m.received));
      worker.postMessage('count');
    });
  return { urls: ports.map((p) => `http://127.0.0.1:${p}/hook`), received, stop: () => worker.terminate() };
}

interface Row {
  scenario: string;
  events: number;
  origins: number;
  concurrencyPerOrigin: number;
  seconds: number;
  deliveriesPerSecond: number;
  p50Ms: number;
  p99Ms: number;
  succeeded: number;
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;
}

async function runScenario(scenario: string, events: number, origins: number, concurrencyPerOrigin: number): Promise<Row> {
  const receivers = await startReceivers(origins);
  const clock = new VirtualClock();
  const service = createWebhookService({ clock, concurrencyPerOrigin });
  const app = new Hono<AppEnv>();
  app.use('*', async (c, next) => {
    c.set('merchantId', c.req.header('x-merchant') ?? '');
    await next();
  });
  if (service.configuration) app.route('/v1/webhooks', webhookRoutes(service.configuration));
  const merchants = receivers.urls.map((_, i) => `merchant-${i}`);
  for (const [i, url] of receivers.urls.entries()) {
    const res = await app.request('/v1/webhooks', {
      method: 'POST',
      headers: { 'x-merchant': merchants[i]! },
      body: JSON.stringify({ url }),
    });
    if (res.status !== 201) throw new Error(`endpoint setup failed: ${res.status}`);
  }

  const started = performance.now();
  for (let i = 0; i < events; i++) {
    service.emit(merchants[i % origins]!, { type: 'payment.completed', paymentId: crypto.randomUUID(), externalId: `order-${i}` });
  }
  await service.idle();
  const seconds = (performance.now() - started) / 1000;

  const deliveries = merchants.flatMap((m) => service.deliveries(m));
  const durations = deliveries.flatMap((d) => d.attempts.map((a) => a.durationMs)).sort((a, b) => a - b);
  const succeeded = deliveries.filter((d) => d.status === 'succeeded').length;
  const received = await receivers.received();
  await service.close();
  clock.dispose();
  await receivers.stop();
  if (succeeded !== events || received !== events)
    throw new Error(`${scenario}: ${succeeded} succeeded, ${received} received, of ${events}`);
  return {
    scenario,
    events,
    origins,
    concurrencyPerOrigin,
    seconds: Number(seconds.toFixed(2)),
    deliveriesPerSecond: Math.round(events / seconds),
    p50Ms: percentile(durations, 50),
    p99Ms: percentile(durations, 99),
    succeeded,
  };
}

await runScenario('warm-up', 500, 1, DEFAULT_CONCURRENCY_PER_ORIGIN);
const rows: Row[] = [];
for (const concurrency of [8, DEFAULT_CONCURRENCY_PER_ORIGIN, 128]) {
  rows.push(
    await runScenario(concurrency === DEFAULT_CONCURRENCY_PER_ORIGIN ? 'one merchant (default)' : 'one merchant', EVENTS, 1, concurrency),
  );
}
rows.push(await runScenario('ten merchants (default)', EVENTS, 10, DEFAULT_CONCURRENCY_PER_ORIGIN));
console.table(rows);
const headline = rows.find((r) => r.scenario === 'one merchant (default)')!;
console.log(
  `webhooks: ${headline.deliveriesPerSecond} deliveries/s (${EVENTS} events, one receiver, ${DEFAULT_CONCURRENCY_PER_ORIGIN} concurrent per origin, Node ${process.version})`,
);
