// Memory exhaustion is a 507, not a crash: `stablepay start` in a 48 MiB old space (heap limit 96 MiB), a webhook
// endpoint configured so every create also holds a delivery, creates until one is refused. The default ceiling
// (half the heap limit at 4 KiB a payment) is reached with a 507 and its message, and the process is still serving.
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { expect, it } from 'vitest';

const bin = fileURLToPath(new URL('../bin/stablepay.js', import.meta.url));
const KEY = 'pk_memoryceiling000000000000000000000000000000000000';

it('a simulator in a 48 MiB old space answers 507 at its default ceiling and keeps serving', async () => {
  const child = spawn(
    process.execPath,
    [
      '--max-old-space-size=48',
      bin,
      'start',
      '--no-chains',
      '--port',
      '0',
      '--quiet',
      '--no-demo-payment',
      '--rate-limit',
      '100000000',
      '--api-key',
      KEY,
    ],
    {
      env: { ...process.env, STABLEPAY_API_KEY: '', STABLEPAY_STATE_DIR: '', STABLEPAY_DATABASE_URL: '', STABLEPAY_MAX_PAYMENTS: '' },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let output = '';
  child.stdout.on('data', (d) => (output += d));
  child.stderr.on('data', (d) => (output += d));
  let exitCode: number | null | undefined;
  const exited = new Promise<void>((resolve) =>
    child.once('exit', (code) => {
      exitCode = code;
      resolve();
    }),
  );
  try {
    await expect.poll(() => /Base URL\s+(\S+)/.exec(output)?.[1], { timeout: 60_000 }).toBeDefined();
    const base = /Base URL\s+(\S+)/.exec(output)?.[1] as string;
    const headers = { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' };
    // An endpoint nobody answers: every create also holds a pending delivery.
    expect(
      (await fetch(`${base}/v1/webhooks`, { method: 'POST', headers, body: JSON.stringify({ url: 'http://127.0.0.1:9/hooks' }) })).status,
    ).toBe(201);
    let created = 0;
    let refused: Response | undefined;
    const body = JSON.stringify({ amount: '1', currency: 'USD', title: 'x'.repeat(200) });
    while (!refused && exitCode === undefined && created < 100_000) {
      const batch = await Promise.all(Array.from({ length: 16 }, () => fetch(`${base}/v1/payments`, { method: 'POST', headers, body })));
      for (const res of batch) {
        if (res.status === 201) created += 1;
        else refused ??= res;
        await res.arrayBuffer();
      }
    }
    expect(exitCode, output).toBeUndefined();
    expect(refused?.status).toBe(507);
    // Half of the 96 MiB heap limit at 4 KiB a payment.
    expect(created).toBe(12_288);
    expect((await fetch(`${base}/v1/payments?limit=1`, { headers })).status).toBe(200);
  } finally {
    child.kill('SIGTERM');
    await exited;
  }
}, 600_000);
