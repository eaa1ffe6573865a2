// `stablepay listen` and `stablepay trigger` against a running simulator: trigger moves payments
// through the control API, listen forwards each delivery signed as sent, shows a refused forward
// and lets the simulator retry it, and puts the endpoint back on exit.
import { spawn, type ChildProcess } from 'node:child_process';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { verifySignature } from '@stablepay/conformance/signature';
import { startServer, type RunningServer } from '@stablepay/simulator/server';
import { runBin } from './test-support/run-bin.ts';

const KEY = 'pk_listentrigger1234';
const bin = fileURLToPath(new URL('../bin/stablepay.js', import.meta.url));
let server: RunningServer;
let target: Server;
let targetUrl: string;
let answer = 204;
const received: { headers: IncomingHttpHeaders; body: string }[] = [];
let listen: ChildProcess;
let listenOut = '';

beforeAll(async () => {
  server = await startServer({ port: 0, defaultApiKey: KEY, logger: { info() {}, error() {} } });
  target = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      received.push({ headers: req.headers, body: Buffer.concat(chunks).toString() });
      res.writeHead(answer).end();
    });
  });
  await new Promise<void>((resolve) => target.listen(0, '127.0.0.1', resolve));
  targetUrl = `http://127.0.0.1:${(target.address() as AddressInfo).port}/hooks`;
  listen = spawn(process.execPath, [bin, 'listen', '--forward-to', targetUrl, '--base-url', server.url], {
    env: { ...process.env, STABLEPAY_API_KEY: KEY },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  listen.stdout!.on('data', (c: Buffer) => (listenOut += c.toString()));
  listen.stderr!.on('data', (c: Buffer) => (listenOut += c.toString()));
  await vi.waitFor(() => expect(listenOut).toContain('Ready.'), { timeout: 15_000, interval: 50 });
}, 30_000);

afterAll(async () => {
  if (listen.exitCode === null) listen.kill('SIGKILL');
  await server.close();
  target.close();
});

const events = () => received.map((r) => (JSON.parse(r.body) as { event: string }).event);

describe('stablepay listen + trigger', () => {
  it('prints the secret once and forwards each delivery with its signed headers and body', async () => {
    const secret = /signing secret \(shown once\): (whsec_[0-9a-f]{64})/.exec(listenOut)?.[1];
    expect(secret).toBeDefined();
    const { code, stdout } = await runBin(['trigger', 'payment.completed', '--base-url', server.url], { STABLEPAY_API_KEY: KEY });
    expect(code).toBe(0);
    const id = /^payment\.completed: payment (\S+) ACTIVE -> SUCCESSFUL \(submit, confirm\)$/m.exec(stdout)?.[1];
    expect(id).toBeDefined();
    await vi.waitFor(() => expect(events()).toEqual(['payment.processing', 'payment.completed']), { timeout: 5_000 });
    for (const r of received) {
      expect(JSON.parse(r.body).data.paymentId).toBe(id);
      expect(
        verifySignature({ headers: r.headers, rawBody: r.body, secret: secret!, nowSeconds: Math.floor(Date.now() / 1000) }),
      ).toMatchObject({ ok: true });
      expect(r.headers['x-simulator-attempt-timestamp']).toMatch(/^\d+$/);
    }
    await vi.waitFor(() => expect(listenOut).toMatch(new RegExp(`payment\\.completed\\s+payment ${id}  -> 204`)), { timeout: 5_000 });
  });

  it('exits 2 with the reason in one line when the payment cannot reach the event', async () => {
    const created = await fetch(`${server.url}/v1/payments`, {
      method: 'POST',
      headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' },
      body: '{"amount":"10","currency":"USD"}',
    });
    const { id } = (await created.json()) as { id: string };
    expect(
      (await runBin(['trigger', 'payment.cancelled', '--payment', id, '--base-url', server.url], { STABLEPAY_API_KEY: KEY })).code,
    ).toBe(0);
    const refused = await runBin(['trigger', 'payment.completed', '--payment', id, '--base-url', server.url], { STABLEPAY_API_KEY: KEY });
    expect(refused.code).toBe(2);
    expect(refused.stderr.trim()).toBe(
      `stablepay trigger: payment ${id} is CANCELLED: payment.completed needs an ACTIVE or PROCESSING one`,
    );
    expect((await runBin(['trigger', 'payment.teleported', '--base-url', server.url], { STABLEPAY_API_KEY: KEY })).code).toBe(2);
  });

  it('shows a refused forward and the simulator retries it on schedule', async () => {
    received.length = 0;
    answer = 503;
    expect((await runBin(['trigger', 'payout.cancelled', '--base-url', server.url], { STABLEPAY_API_KEY: KEY })).code).toBe(0);
    await vi.waitFor(() => expect(listenOut).toMatch(/payout\.cancelled\s+payout \S+ {2}-> 503/), { timeout: 5_000 });
    await server.simulator.webhooks.idle();
    answer = 200;
    await fetch(`${server.url}/control/v1/clock/advance`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"ms":61000}',
    });
    // payout.created and payout.cancelled each failed once (503) and went through on the retry.
    await vi.waitFor(() => expect(events().sort()).toEqual(['payout.cancelled', 'payout.cancelled', 'payout.created', 'payout.created']), {
      timeout: 5_000,
    });
    await vi.waitFor(() => expect(listenOut).toMatch(/payout\.cancelled\s+payout \S+ {2}-> 200/), { timeout: 5_000 });
  });

  it('puts the endpoint back (disabled, as listen made it) on Ctrl-C', async () => {
    const exited = new Promise<number | null>((resolve) => listen.once('exit', resolve));
    listen.kill('SIGINT');
    expect(await exited).toBe(0);
    const endpoint = await fetch(`${server.url}/v1/webhooks`, { headers: { authorization: `Bearer ${KEY}` } });
    expect(((await endpoint.json()) as { enabled: boolean }).enabled).toBe(false);
    expect(listenOut).not.toContain(KEY);
  });
});
