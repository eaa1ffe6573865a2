import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

// The built command, as a user runs it (vitest's globalSetup has just built dist/ from the current sources).
const bin = fileURLToPath(new URL('../bin/stablepay.js', import.meta.url));

function start(args: string[], env: Record<string, string> = {}) {
  const child = spawn(process.execPath, [bin, 'start', ...args], {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (d) => (output += d));
  child.stderr.on('data', (d) => (output += d));
  const ready = new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no banner:\n${output}`)), 30_000);
    child.stdout.on('data', () => {
      if (output.includes('Configure a webhook endpoint')) {
        clearTimeout(timer);
        resolve(output);
      }
    });
    child.once('exit', (code) => reject(new Error(`exited ${code}:\n${output}`)));
  });
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return { child, ready, exited, output: () => output };
}

describe('stablepay start', () => {
  it('starts from env and flags, serves, prints the banner and shuts down cleanly on SIGTERM', async () => {
    const key = 'pk_fromenv000000000000000000000000000000000000000000';
    const run = start(['--port', '0', '--rate-limit', '5', '--no-control', '--no-chains'], { STABLEPAY_API_KEY: key });
    const banner = await run.ready;
    // The banner comes first: the demo payment's request line is written after it.
    expect(banner.startsWith('stablepay simulator is running')).toBe(true);
    expect(banner).toContain(`Default API key (shown only now): ${key}`);
    expect(banner).toContain('Control API    (disabled)');
    expect(banner).toContain('Chains         none (--no-chains)');
    const url = `${/Base URL\s+(\S+)/.exec(banner)?.[1] as string}/v1`;
    const res = await fetch(`${url}/payments`, { headers: { authorization: `Bearer ${key}` } });
    expect(res.status).toBe(200);
    expect(res.headers.get('x-ratelimit-limit')).toBe('5');
    run.child.kill('SIGTERM');
    expect(await run.exited).toBe(0);
    expect(run.output()).toContain('SIGTERM received, shutting down');
    // The key is printed once, in the banner only.
    expect(run.output().split(key).length - 1).toBe(3);
  });

  it('delivers webhooks from the built command (the HTTP client is loaded with the first delivery)', async () => {
    const { createServer } = await import('node:http');
    const received: string[] = [];
    const receiver = createServer((req, res) => {
      let body = '';
      req.on('data', (d) => (body += d));
      req.on('end', () => {
        received.push(body);
        res.end('ok');
      });
    });
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    const key = 'pk_delivers000000000000000000000000000000000000000000';
    const run = start(['--port', '0', '--no-chains', '--no-control', '--quiet', '--api-key', key]);
    try {
      const base = /Base URL\s+(\S+)/.exec(await run.ready)?.[1] as string;
      const headers = { authorization: `Bearer ${key}`, 'content-type': 'application/json' };
      const { port } = receiver.address() as { port: number };
      expect(
        (await fetch(`${base}/v1/webhooks`, { method: 'POST', headers, body: JSON.stringify({ url: `http://127.0.0.1:${port}/hook` }) }))
          .status,
      ).toBe(201);
      const payment = (await (
        await fetch(`${base}/v1/payments`, { method: 'POST', headers, body: '{"amount":"10","currency":"USD"}' })
      ).json()) as { id: string };
      expect((await fetch(`${base}/v1/payments/${payment.id}`, { method: 'DELETE', headers })).status).toBe(200);
      for (let i = 0; i < 100 && received.length === 0; i++) await new Promise((r) => setTimeout(r, 50));
      expect(received.map((b) => (JSON.parse(b) as { event: string }).event)).toEqual(['payment.cancelled']);
    } finally {
      run.child.kill('SIGTERM');
      await run.exited;
      receiver.close();
    }
  });

  it('takes the pay URL from STABLEPAY_PUBLIC_URL (set by a black-box harness) unless --pay-url is given', async () => {
    const run = start(['--port', '0', '--no-chains', '--no-control'], { STABLEPAY_PUBLIC_URL: 'http://127.0.0.1:45999' });
    expect(await run.ready).toMatch(/Pay URL\s+http:\/\/127\.0\.0\.1:45999\n/);
    run.child.kill('SIGTERM');
    expect(await run.exited).toBe(0);
    const flag = start(['--port', '0', '--no-chains', '--no-control', '--pay-url', 'http://pay.example:8080'], {
      STABLEPAY_PUBLIC_URL: 'http://127.0.0.1:45999',
    });
    expect(await flag.ready).toMatch(/Pay URL\s+http:\/\/pay\.example:8080\n/);
    flag.child.kill('SIGTERM');
    expect(await flag.exited).toBe(0);
  });

  it('starts the five chains by default, prints their RPC URLs, settles on them, and stops them on SIGINT', async () => {
    const key = 'pk_chains00000000000000000000000000000000000000000000';
    const run = start(['--port', '0', '--api-key', key]);
    const banner = await run.ready;
    const rpcUrls = [...banner.matchAll(/chainId (\d+)\s+(http:\/\/\S+)/g)].map((m) => [Number(m[1]), m[2] as string] as const);
    expect(rpcUrls.map(([id]) => id)).toEqual([1, 42161, 8453, 137, 56]);
    for (const [chainId, url] of rpcUrls) {
      const res = await fetch(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: '{"jsonrpc":"2.0","id":1,"method":"eth_chainId"}',
      });
      expect(BigInt(((await res.json()) as { result: string }).result)).toBe(BigInt(chainId));
    }
    // The printed payment page is a real, payable payment a newcomer can open.
    const pageUrl = /Payment page\s+(\S+)/.exec(banner)?.[1] as string;
    expect(pageUrl).toMatch(/\/p\/[0-9a-f-]{36}$/);
    const page = await fetch(pageUrl);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('Demo order');
    const base = `${/Base URL\s+(\S+)/.exec(banner)?.[1] as string}/v1`;
    const auth = { authorization: `Bearer ${key}`, 'content-type': 'application/json' };
    const created = (await (
      await fetch(`${base}/payments`, { method: 'POST', headers: auth, body: '{"amount":"10","currency":"USD"}' })
    ).json()) as { id: string };
    const origin = new URL(base).origin;
    const paid = await fetch(`${origin}/control/v1/payments/${created.id}/pay`, {
      method: 'POST',
      headers: auth,
      body: '{"chainId":8453,"token":"USDC"}',
    });
    expect(((await paid.json()) as { status: string }).status).toBe('SUCCESSFUL');
    run.child.kill('SIGINT');
    expect(await run.exited).toBe(0);
    // No anvil survives the simulator: every RPC port is closed.
    for (const [, url] of rpcUrls) await expect(fetch(url, { method: 'POST', body: '{}' })).rejects.toThrow();
  });

  it('refuses a malformed default key as a usage error (exit 2)', async () => {
    const run = start(['--port', '0', '--api-key', 'sk_nope']);
    await expect(run.ready).rejects.toThrow(/stablepay start: defaultApiKey must be pk_/);
    expect(await run.exited).toBe(2);
    expect(run.output()).not.toContain('at '); // no stack trace
  });
});
