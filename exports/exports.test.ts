// The merchant exports as a merchant's project meets them: imported by package name from a project
// whose node_modules/stablepay is this package (built into dist/ by the test run's globalSetup),
// run by plain node and type-checked by tsc with settings that know nothing of our sources.
import { execFile } from 'node:child_process';
import { mkdtemp, mkdir, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fromPackageRoot, packageRoot } from '@stablepay/contract/package-root';
import { startServer, type RunningServer } from '@stablepay/simulator/server';
import { formatSignatureHeader, signPayload } from '@stablepay/simulator/webhooks';

const run = promisify(execFile);
const KEY = 'pk_exportstest12345';
let project: string;
let server: RunningServer;

const CONSUMER_JS = `
import { verifyWebhookSignature } from 'stablepay/webhooks';
import { createStablepayClient } from 'stablepay/client';
const client = createStablepayClient({ baseUrl: process.env.BASE_URL, apiKey: process.env.API_KEY });
const created = await client.POST('/v1/payments', { body: { amount: '100', currency: 'USD' } });
const fetched = await client.GET('/v1/payments/{id}', { params: { path: { id: created.data.id } } });
const { BODY, HEADER, SECRET, NOW_MS } = process.env;
console.log(JSON.stringify({
  created: created.response.status,
  status: fetched.data.status,
  good: verifyWebhookSignature(BODY, HEADER, SECRET, { now: Number(NOW_MS) }),
  stale: verifyWebhookSignature(BODY, HEADER, SECRET, { now: Number(NOW_MS) + 301_000 }),
  early: verifyWebhookSignature(BODY, HEADER, SECRET, { now: Number(NOW_MS) - 301_000, toleranceSeconds: 300 }),
  tampered: verifyWebhookSignature(BODY + ' ', HEADER, SECRET, { now: Number(NOW_MS) }),
  noTimestamp: verifyWebhookSignature(BODY, HEADER.split(',')[1], SECRET),
}));
`;

const CONSUMER_TS = `
import { verifyWebhookSignature, type WebhookVerification } from 'stablepay/webhooks';
import { createStablepayClient, type PaymentCreateRequest, type Payment } from 'stablepay/client';
const minimal: PaymentCreateRequest = { amount: '100', currency: 'USD' };
const client = createStablepayClient({ baseUrl: 'http://127.0.0.1:4000', apiKey: 'pk_x' });
export async function demo(): Promise<Payment['status'] | undefined> {
  const { data } = await client.POST('/v1/payments', { body: minimal });
  // @ts-expect-error: not a path of the contract
  await client.GET('/v1/nowhere');
  // @ts-expect-error: amount is a decimal string, not a number
  await client.POST('/v1/payments', { body: { amount: 100, currency: 'USD' } });
  const verdict: WebhookVerification = verifyWebhookSignature('{}', 't=1,v1=00', 'whsec_x', { toleranceSeconds: 300, now: new Date() });
  return verdict.ok ? data?.status : undefined;
}
`;

beforeAll(async () => {
  project = await mkdtemp(join(tmpdir(), 'stablepay-consumer-'));
  await mkdir(join(project, 'node_modules'));
  await symlink(packageRoot, join(project, 'node_modules', 'stablepay'), 'dir');
  await writeFile(join(project, 'package.json'), JSON.stringify({ name: 'merchant-app', type: 'module', private: true }));
  await writeFile(join(project, 'consumer.mjs'), CONSUMER_JS);
  await writeFile(join(project, 'consumer.ts'), CONSUMER_TS);
  await writeFile(
    join(project, 'tsconfig.json'),
    JSON.stringify({
      compilerOptions: {
        target: 'ES2022',
        module: 'NodeNext',
        moduleResolution: 'NodeNext',
        strict: true,
        noEmit: true,
        skipLibCheck: false,
        types: [],
      },
      files: ['consumer.ts'],
    }),
  );
  server = await startServer({ port: 0, defaultApiKey: KEY, logger: { info() {}, error() {} } });
});
afterAll(async () => {
  await server?.close();
  await rm(project, { recursive: true, force: true });
});

describe('package exports for merchants', () => {
  it('stablepay/client talks to the service and stablepay/webhooks runs the four steps, from plain node', async () => {
    const secret = 'whsec_0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef';
    const body = '{"event":"payment.completed","timestamp":"2026-11-21T10:00:00.000Z","data":{"paymentId":"p","externalId":null}}';
    const now = Date.now();
    const t = Math.floor(now / 1000);
    const env = {
      ...process.env,
      BASE_URL: server.url,
      API_KEY: KEY,
      BODY: body,
      SECRET: secret,
      NOW_MS: String(now),
      HEADER: formatSignatureHeader(t, signPayload(secret, t, body)),
    };
    const { stdout } = await run(process.execPath, ['consumer.mjs'], { cwd: project, env });
    expect(JSON.parse(stdout)).toEqual({
      created: 201,
      status: 'ACTIVE',
      good: { ok: true, timestamp: t },
      stale: { ok: false, step: 'tolerance', message: expect.any(String) },
      early: { ok: false, step: 'tolerance', message: expect.any(String) },
      tampered: { ok: false, step: 'signature', message: expect.any(String) },
      noTimestamp: { ok: false, step: 'format', message: expect.any(String) },
    });
  });

  it('type-checks in a strict TypeScript project: the minimal create body is accepted, wrong paths and types are not', async () => {
    const tsc = fromPackageRoot('node_modules', 'typescript', 'bin', 'tsc');
    const result = await run(process.execPath, [tsc, '-p', 'tsconfig.json'], { cwd: project }).then(
      () => ({ code: 0, out: '' }),
      (error: { code: number; stdout: string }) => ({ code: error.code, out: error.stdout }),
    );
    expect(result.out).toBe('');
    expect(result.code).toBe(0);
  });
});
