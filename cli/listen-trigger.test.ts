// `stablepay listen` and `stablepay trigger` against a running simulator, as a merchant uses them: one stable secret
// per listener identity (--print-secret), kept across a reset and across a second listen started and stopped; several
// listens at once each get every delivery; a refused forward is retried by the simulator; the merchant's own endpoint
// is never touched; a forward URL without a scheme is refused before anything starts.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { verifySignature } from '@stablepay/conformance/signature';
import { startServer, type RunningServer } from '@stablepay/simulator/server';
import { runBin } from './test-support/run-bin.ts';

const KEY = 'pk_listentrigger1234';
const bin = fileURLToPath(new URL('../bin/stablepay.js', import.meta.url));
const configDir = mkdtempSync(join(tmpdir(), 'stablepay-listen-'));
let server: RunningServer;
const env = () => ({ STABLEPAY_API_KEY: KEY, STABLEPAY_CONFIG_DIR: configDir, STABLEPAY_BASE_URL: server.url });

interface Receiver {
  url: string;
  received: { headers: IncomingHttpHeaders; body: string }[];
  answer: number;
  server: Server;
}

async function receiver(): Promise<Receiver> {
  const r = { received: [], answer: 204 } as unknown as Receiver;
  r.server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      r.received.push({ headers: req.headers, body: Buffer.concat(chunks).toString() });
      res.writeHead(r.answer).end();
    });
  });
  await new Promise<void>((resolve) => r.server.listen(0, '127.0.0.1', resolve));
  r.url = `http://127.0.0.1:${(r.server.address() as AddressInfo).port}/hooks`;
  return r;
}

interface Listening {
  child: ChildProcess;
  out: () => string;
  secret: string;
  stop(): Promise<number | null>;
}

const running: ChildProcess[] = [];

async function startListen(forwardTo: string, ...args: string[]): Promise<Listening> {
  const child = spawn(process.execPath, [bin, 'listen', '--forward-to', forwardTo, ...args], {
    env: { ...process.env, ...env() },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  running.push(child);
  let out = '';
  child.stdout!.on('data', (c: Buffer) => (out += c.toString()));
  child.stderr!.on('data', (c: Buffer) => (out += c.toString()));
  // "Ready." and the secret are two lines, which may come in two chunks: wait for the second.
  const secretLine = /Webhook signing secret \(listener "[^"]+"\): (whsec_[0-9a-f]{64})\n/;
  await vi.waitFor(() => expect(out).toMatch(secretLine), { timeout: 20_000, interval: 50 });
  expect(out).toContain('Ready.');
  const secret = secretLine.exec(out)?.[1];
  expect(secret).toBeDefined();
  return {
    child,
    out: () => out,
    secret: secret!,
    stop: () => {
      const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
      child.kill('SIGINT');
      return exited;
    },
  };
}

const events = (r: Receiver) => r.received.map((x) => (JSON.parse(x.body) as { event: string }).event);
const verifiesWith = (r: Receiver, secret: string) =>
  r.received.map((x) => verifySignature({ headers: x.headers, rawBody: x.body, secret, nowSeconds: Math.floor(Date.now() / 1000) }).ok);

async function trigger(...args: string[]): Promise<string> {
  const { code, stdout, stderr } = await runBin(['trigger', ...args], env());
  expect(stderr).toBe('');
  expect(code).toBe(0);
  return stdout;
}

let first: Receiver;
let second: Receiver;
beforeAll(async () => {
  server = await startServer({ port: 0, defaultApiKey: KEY, logger: { info() {}, error() {} } });
  [first, second] = await Promise.all([receiver(), receiver()]);
}, 30_000);

afterAll(async () => {
  for (const child of running) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  await server.close();
  first.server.close();
  second.server.close();
  rmSync(configDir, { recursive: true, force: true });
});

describe('stablepay listen + trigger', () => {
  it('--print-secret prints the identity secret, the same each time, kept 0600; another name has another', async () => {
    const a = await runBin(['listen', '--print-secret'], env());
    const b = await runBin(['listen', '--print-secret'], env());
    const other = await runBin(['listen', '--print-secret', '--name', 'billing'], env());
    expect(a.code).toBe(0);
    expect(a.stdout).toMatch(/^whsec_[0-9a-f]{64}\n$/);
    expect(b.stdout).toBe(a.stdout);
    expect(other.stdout).toMatch(/^whsec_[0-9a-f]{64}\n$/);
    expect(other.stdout).not.toBe(a.stdout);
    expect(statSync(join(configDir, 'listeners', 'default.secret')).mode & 0o777).toBe(0o600);
  });

  it('listen -> reset -> trigger -> a second listen (both get everything) stopped -> trigger: every delivery verifies with the first printed secret', async () => {
    const printed = (await runBin(['listen', '--print-secret'], env())).stdout.trim();
    const one = await startListen(first.url);
    expect(one.secret).toBe(printed);

    const reset = await runBin(['reset'], env());
    expect(reset.code).toBe(0);
    await vi.waitFor(() => expect(one.out()).toContain('listen: the simulator was reset; still forwarding, with the same secret'), {
      timeout: 10_000,
    });
    expect(one.out().match(/the simulator was reset/g)).toHaveLength(1);

    const completed = /^payment\.completed: payment (\S+) ACTIVE -> SUCCESSFUL/m.exec(await trigger('payment.completed'))?.[1];
    expect(completed).toBeDefined();
    await vi.waitFor(() => expect(events(first)).toEqual(['payment.processing', 'payment.completed']), { timeout: 10_000 });
    await vi.waitFor(
      () => expect(one.out()).toMatch(new RegExp(`payment\\.completed\\s+payment ${completed}  -> 204 \\(\\d+ ms\\)  \\[[0-9a-f-]{36}\\]`)),
      {
        timeout: 5_000,
      },
    );

    const two = await startListen(second.url);
    expect(two.secret).toBe(printed);
    await trigger('payment.cancelled');
    await vi.waitFor(() => expect(events(second)).toEqual(['payment.cancelled']), { timeout: 10_000 });
    await vi.waitFor(() => expect(events(first)).toHaveLength(3), { timeout: 10_000 });
    expect(await two.stop()).toBe(0);
    expect(two.out()).toContain('listen: stopped');

    await trigger('payment.failed');
    await trigger('test');
    await vi.waitFor(() => expect(events(first)).toHaveLength(6), { timeout: 10_000 });
    expect(events(first).slice(3).sort()).toEqual(['payment.failed', 'payment.processing', 'test']);
    expect(events(second)).toEqual(['payment.cancelled']);
    expect(verifiesWith(first, printed)).toEqual(Array(6).fill(true));
    expect(verifiesWith(second, printed)).toEqual([true]);
    for (const r of first.received) expect(r.headers['x-service-delivery-id']).toMatch(/^[0-9a-f-]{36}$/);

    // The merchant's own webhook endpoint was never made or changed by listen.
    const endpoint = await fetch(`${server.url}/v1/webhooks`, { headers: { authorization: `Bearer ${KEY}` } });
    expect(endpoint.status).toBe(404);
    expect(await one.stop()).toBe(0);
    const left = await fetch(`${server.url}/control/v1/listeners`, { headers: { authorization: `Bearer ${KEY}` } });
    expect(((await left.json()) as { data: unknown[] }).data).toEqual([]);
    expect(one.out()).not.toContain(KEY);
  }, 90_000);

  it('shows a refused forward and the simulator retries it on schedule', async () => {
    first.received.length = 0;
    first.answer = 503;
    const one = await startListen(first.url, '--events', 'payout.created,payout.cancelled');
    await trigger('payout.cancelled');
    await vi.waitFor(() => expect(one.out()).toMatch(/payout\.cancelled\s+payout \S+ {2}-> 503/), { timeout: 10_000 });
    await server.simulator.webhooks.idle();
    first.answer = 200;
    await fetch(`${server.url}/control/v1/clock/advance`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"ms":61000}',
    });
    // payout.created and payout.cancelled each failed once (503) and went through on the retry, with one delivery id.
    await vi.waitFor(
      () => expect(events(first).sort()).toEqual(['payout.cancelled', 'payout.cancelled', 'payout.created', 'payout.created']),
      {
        timeout: 10_000,
      },
    );
    const ids = first.received.map((r) => r.headers['x-service-delivery-id']);
    expect(new Set(ids).size).toBe(2);
    await vi.waitFor(() => expect(one.out()).toMatch(/payout\.cancelled\s+payout \S+ {2}-> 200/), { timeout: 5_000 });
    expect(await one.stop()).toBe(0);
  }, 60_000);

  it('exits 2 with the reason in one line when the payment cannot reach the event', async () => {
    const created = await fetch(`${server.url}/v1/payments`, {
      method: 'POST',
      headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' },
      body: '{"amount":"10","currency":"USD"}',
    });
    const { id } = (await created.json()) as { id: string };
    expect((await runBin(['trigger', 'payment.cancelled', '--payment', id], env())).code).toBe(0);
    const refused = await runBin(['trigger', 'payment.completed', '--payment', id], env());
    expect(refused.code).toBe(2);
    // The note says this merchant has no endpoint and no listener; then the refusal, in one line.
    expect(refused.stderr.trim().split('\n').at(-1)).toBe(
      `stablepay trigger: payment ${id} is CANCELLED: payment.completed needs an ACTIVE or PROCESSING one`,
    );
    expect((await runBin(['trigger', 'payment.teleported'], env())).code).toBe(2);
  });

  it('refuses a forward URL without a scheme before starting anything', async () => {
    const refused = await runBin(['listen', '--forward-to', 'localhost:5150/webhooks'], env());
    expect(refused.code).toBe(2);
    expect(refused.stderr).toBe(
      'stablepay listen: --forward-to must start with http:// or https://, e.g. http://localhost:5150/webhooks (got "localhost:5150/webhooks")\n(add --help for usage)\n',
    );
    const left = await fetch(`${server.url}/control/v1/listeners`, { headers: { authorization: `Bearer ${KEY}` } });
    expect(((await left.json()) as { data: unknown[] }).data).toEqual([]);
  });
});
