#!/usr/bin/env node
// Packs every publishable package (npm pack) and installs the two merchant packages the way a merchant would:
// from their tarballs into an empty project, their own dependencies from the npm registry. Then that project
// type-checks a use of both (strict TypeScript that knows nothing of our sources) and runs a verification with
// plain node. Fails (exit 1, one line per problem) when a package does not pack, install, type-check or verify,
// or when the merchant install is over 5 MB on disk. Run after `npm ci` (it needs the packages built).
// Usage: node scripts/check-packages.mjs [--keep]   (--keep leaves the scratch project for a look)
import { execFileSync } from 'node:child_process';
import { createHmac } from 'node:crypto';
import { mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const MERCHANT_PACKAGES = ['merchant/webhooks', 'merchant/client'];
const MAX_INSTALL_BYTES = 5 * 1024 * 1024;
const keep = process.argv.includes('--keep');

const problems = [];
const scratch = mkdtempSync(join(tmpdir(), 'stablepay-packages-'));
const run = (command, args, cwd) => execFileSync(command, args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });

/** Bytes on disk of a directory tree (blocks actually used, as `du` counts them). */
function diskBytes(dir) {
  let total = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) total += diskBytes(path);
    else total += statSync(path).blocks * 512;
  }
  return total;
}

const CONSUMER_TS = `
import { verifyWebhookSignature, type WebhookVerification, type WebhookPayload } from '@stablepay/webhooks';
import { createStablepayClient, type Payment, type PaymentCreateRequest } from '@stablepay/client';
const body: PaymentCreateRequest = { amount: '100', currency: 'USD' };
const client = createStablepayClient({ baseUrl: 'http://127.0.0.1:4000', apiKey: 'pk_x' });
export async function create(): Promise<Payment['status'] | undefined> {
  const { data } = await client.POST('/v1/payments', { body });
  // @ts-expect-error: not a path of the contract
  await client.GET('/v1/nowhere');
  return data?.status;
}
export function verify(raw: string, header: string, secret: string): WebhookPayload | undefined {
  const verdict: WebhookVerification = verifyWebhookSignature(raw, header, secret, { toleranceSeconds: 300 });
  return verdict.ok ? (JSON.parse(raw) as WebhookPayload) : undefined;
}
`;

const CONSUMER_MJS = `
import { verifyWebhookSignature } from '@stablepay/webhooks';
import { createStablepayClient } from '@stablepay/client';
const { BODY, HEADER, SECRET, NOW_MS } = process.env;
const client = createStablepayClient({ baseUrl: 'http://127.0.0.1:4000/', apiKey: 'pk_x' });
console.log(JSON.stringify({
  client: typeof client.POST,
  good: verifyWebhookSignature(BODY, HEADER, SECRET, { now: Number(NOW_MS) }).ok,
  tampered: verifyWebhookSignature(BODY + ' ', HEADER, SECRET, { now: Number(NOW_MS) }).ok,
  stale: verifyWebhookSignature(BODY, HEADER, SECRET, { now: Number(NOW_MS) + 301_000 }).ok,
}));
`;

try {
  // 1. Pack every publishable package: the CLI (the root) and the two merchant packages.
  const tarballs = {};
  for (const workspace of [undefined, ...MERCHANT_PACKAGES]) {
    const args = ['pack', '--json', '--pack-destination', scratch, ...(workspace ? ['--workspace', workspace] : ['--workspaces=false'])];
    try {
      const [packed] = JSON.parse(run('npm', args, root));
      tarballs[workspace ?? '.'] = {
        file: join(scratch, packed.filename),
        size: packed.size,
        unpackedSize: packed.unpackedSize,
        entries: packed.entryCount,
        name: packed.name,
      };
    } catch (error) {
      problems.push(
        `npm pack ${workspace ?? '(root)'} failed: ${String(error.stderr ?? error.message)
          .trim()
          .split('\n')
          .at(-1)}`,
      );
    }
  }
  for (const [where, t] of Object.entries(tarballs))
    console.log(
      `packed ${t.name} (${where}): ${t.entries} files, ${(t.size / 1024).toFixed(0)} kB packed, ${(t.unpackedSize / 1024).toFixed(0)} kB unpacked`,
    );

  // 2. A merchant's project: the two tarballs, nothing else of ours; their dependencies from the registry.
  const project = join(scratch, 'merchant-app');
  execFileSync('mkdir', ['-p', project]);
  writeFileSync(join(project, 'package.json'), JSON.stringify({ name: 'merchant-app', private: true, type: 'module' }));
  const merchantTarballs = MERCHANT_PACKAGES.map((w) => tarballs[w]?.file).filter(Boolean);
  if (merchantTarballs.length === MERCHANT_PACKAGES.length) {
    run('npm', ['install', '--no-audit', '--no-fund', '--no-package-lock', ...merchantTarballs], project);
    const bytes = diskBytes(join(project, 'node_modules'));
    const installed = readdirSync(join(project, 'node_modules'), { withFileTypes: true }).flatMap((e) =>
      e.name.startsWith('@')
        ? readdirSync(join(project, 'node_modules', e.name)).map((n) => `${e.name}/${n}`)
        : e.name.startsWith('.')
          ? []
          : [e.name],
    );
    console.log(`merchant install: ${(bytes / 1024 / 1024).toFixed(2)} MB on disk, ${installed.length} packages (${installed.join(', ')})`);
    if (bytes > MAX_INSTALL_BYTES)
      problems.push(`the merchant install is ${(bytes / 1024 / 1024).toFixed(2)} MB, over the 5 MB it may take`);
    for (const heavy of [
      '@sparticuz/chromium',
      'playwright-core',
      '@foundry-rs/anvil-linux-amd64',
      'testcontainers',
      'viem',
      'fast-check',
    ]) {
      if (installed.includes(heavy)) problems.push(`the merchant install brings ${heavy}`);
    }

    // 3. Type-check a use of both with our TypeScript (installed here, not in the merchant's project).
    writeFileSync(join(project, 'consumer.ts'), CONSUMER_TS);
    writeFileSync(
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
    try {
      run(process.execPath, [join(root, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', project], project);
      console.log('merchant project type-checks (strict, skipLibCheck off)');
    } catch (error) {
      problems.push(`the merchant project does not type-check:\n${error.stdout}${error.stderr}`);
    }

    // 4. Run a verification with plain node: a signature made here as the service makes it (spec §6).
    writeFileSync(join(project, 'consumer.mjs'), CONSUMER_MJS);
    const secret = 'whsec_check_packages';
    const body = JSON.stringify({ event: 'payment.completed', data: { paymentId: '00000000-0000-4000-8000-000000000000' } });
    const nowMs = Date.now();
    const t = Math.floor(nowMs / 1000);
    const header = `t=${t},v1=${createHmac('sha256', secret).update(`${t}.${body}`).digest('hex')}`;
    const verdict = JSON.parse(
      execFileSync(process.execPath, ['consumer.mjs'], {
        cwd: project,
        encoding: 'utf8',
        env: { ...process.env, BODY: body, HEADER: header, SECRET: secret, NOW_MS: String(nowMs) },
      }),
    );
    const expected = { client: 'function', good: true, tampered: false, stale: false };
    if (JSON.stringify(verdict) !== JSON.stringify(expected))
      problems.push(`the merchant project's verification gave ${JSON.stringify(verdict)}, expected ${JSON.stringify(expected)}`);
    else console.log('merchant project verifies a signed delivery and refuses a tampered and a stale one');
  }
} catch (error) {
  problems.push(String(error.stderr ?? error.message).trim());
} finally {
  if (keep) console.log(`scratch project kept: ${scratch}`);
  else rmSync(scratch, { recursive: true, force: true });
}

if (problems.length > 0) {
  for (const problem of problems) console.error(`check-packages: ${problem}`);
  process.exit(1);
}
