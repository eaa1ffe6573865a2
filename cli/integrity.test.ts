// The integrity and reproduction flags as a user runs them (bin/stablepay.js): a conformance run against a simulator
// that signs webhooks wrongly, signed with --sign-key and recorded with --record; verify-report on the untouched and
// on a tampered copy; replay-delivery re-posting a recorded delivery; and the usage errors (exit 2, file named).
import { spawn } from 'node:child_process';
import { generateKeyPairSync } from 'node:crypto';
import { createServer } from 'node:http';
import { cp, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type RunningServer } from '@stablepay/simulator/server';
import { quietLogger } from '@stablepay/conformance/test-support/simulator';

const ROOT = fileURLToPath(new URL('../', import.meta.url));

function stablepay(args: string[], env: Record<string, string> = {}): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['bin/stablepay.js', ...args], { cwd: ROOT, env: { ...process.env, ...env } });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    child.on('exit', (code) => resolve({ code, stdout, stderr }));
  });
}

describe('signed reports, recorded traffic and replayed deliveries (CLI)', () => {
  let server: RunningServer;
  let work: string;
  let reports: string;
  let keyFile: string;
  let publicKeyFile: string;
  let run: { code: number | null; stdout: string; stderr: string };

  beforeAll(async () => {
    // v1 over the body alone: every delivery fails verification, so the run has webhook findings to replay.
    server = await startServer({ host: '127.0.0.1', port: 0, logger: quietLogger, faults: ['signature-over-body-only'] });
    work = await mkdtemp(join(tmpdir(), 'cli-integrity-'));
    reports = join(work, 'reports');
    const pair = generateKeyPairSync('ed25519');
    keyFile = join(work, 'signing-key.pem');
    publicKeyFile = join(work, 'signing-key.pub.pem');
    await writeFile(keyFile, pair.privateKey.export({ type: 'pkcs8', format: 'pem' }));
    await writeFile(publicKeyFile, pair.publicKey.export({ type: 'spki', format: 'pem' }));
    run = await stablepay(
      [
        'conformance',
        '--base-url',
        server.url,
        '--only',
        'webhooks.signature,auth.unknown-key',
        '--seed',
        '5',
        '--report-dir',
        reports,
        '--format',
        'console,json,junit,html,md',
        '--sign-key',
        keyFile,
        '--record',
        join(reports, 'traffic.har'),
      ],
      { STABLEPAY_API_KEY: server.simulator.defaultApiKey },
    );
  }, 120_000);

  afterAll(async () => {
    await server?.close();
    if (work) await rm(work, { recursive: true, force: true });
  });

  it('fails the run on the bad signatures and writes, records and signs the reports', async () => {
    expect(run.code).toBe(1);
    // The integrity lines go to stderr: stdout's console report still ends with the counts.
    expect(run.stdout.trimEnd().split('\n').at(-1)).toMatch(/^\d+ passed, \d+ failed$/);
    expect(run.stderr).toMatch(
      /^traffic: \d+ exchanges and \d+ webhook deliveries recorded as HAR 1\.2 in .*traffic\.har\nsigned: 5 report files in .*manifest\.jws \(Ed25519 key [A-Za-z0-9_-]{43}\); check with: stablepay verify-report .* --public-key <your public key>\n$/,
    );
    const har = JSON.parse(await readFile(join(reports, 'traffic.har'), 'utf8'));
    expect(har.log.version).toBe('1.2');
    expect(har.log.entries.length).toBeGreaterThan(5);
    expect(har.log.entries.filter((e: { _deliveryId?: string }) => e._deliveryId).length).toBeGreaterThanOrEqual(3);
    const everything = (
      await Promise.all(
        ['conformance.json', 'junit.xml', 'conformance.html', 'conformance.md', 'traffic.har'].map((f) =>
          readFile(join(reports, f), 'utf8'),
        ),
      )
    ).join('\n');
    expect(everything).not.toContain(server.simulator.defaultApiKey);
    expect(everything).not.toMatch(/whsec_[0-9a-f]{8,}/);
  });

  it('puts the delivery, both signatures and a replay command into each webhook finding', async () => {
    const json = JSON.parse(await readFile(join(reports, 'conformance.json'), 'utf8'));
    expect(json.metadata.seed).toBe(5);
    expect(json.metadata.contract.sha256).toMatch(/^[0-9a-f]{64}$/);
    const findings = json.failures.filter((f: { requirement: string }) => f.requirement === 'WH-SIGN-HMAC');
    expect(findings.length).toBeGreaterThan(0);
    for (const finding of findings) {
      const { delivery } = finding;
      expect(delivery.id).toMatch(/^delivery-\d+$/);
      expect(JSON.parse(Buffer.from(delivery.bodyBase64, 'base64').toString()).event).toBe('payment.cancelled');
      expect(delivery.signature.actual).not.toBe(delivery.signature.expected);
      expect(delivery.signature.diagnosis).toMatch(/raw body alone/);
      expect(delivery.signature.compute).toContain('"$STABLEPAY_WEBHOOK_SECRET"');
      expect(finding.reproduction).toBe(`stablepay replay-delivery '${reports}' --delivery ${delivery.id} --to "$WEBHOOK_URL"`);
    }
  });

  it('verify-report: 0 untouched with the signer key, 1 naming a changed, missing or extra file', async () => {
    const ok = await stablepay(['verify-report', reports, '--public-key', publicKeyFile]);
    expect(ok.code).toBe(0);
    expect(ok.stdout).toMatch(/^OK .*: 5 files as signed/);
    const asJson = await stablepay(['verify-report', reports, '--public-key', publicKeyFile, '--json']);
    expect(asJson.code).toBe(0);
    expect(JSON.parse(asJson.stdout)).toMatchObject({ ok: true, problems: [], keySource: 'given', run: { seed: 5 } });
    for (const [name, tamper, problem] of [
      [
        'changed',
        async (dir: string) =>
          writeFile(join(dir, 'junit.xml'), (await readFile(join(dir, 'junit.xml'), 'utf8')).replace('failures="1"', 'failures="0"')),
        /junit\.xml: changed/,
      ],
      ['missing', (dir: string) => rm(join(dir, 'conformance.html')), /conformance\.html: missing/],
      ['extra', (dir: string) => writeFile(join(dir, 'notes.txt'), 'x'), /notes\.txt: extra file/],
    ] as const) {
      const copy = join(work, `tampered-${name}`);
      await cp(reports, copy, { recursive: true });
      await tamper(copy);
      const outcome = await stablepay(['verify-report', copy, '--public-key', publicKeyFile]);
      expect(outcome.code, name).toBe(1);
      expect(outcome.stdout).toMatch(problem);
    }
  });

  it('verify-report: 2 for an unreadable key file or no directory, naming it', async () => {
    const noKey = await stablepay(['verify-report', reports, '--public-key', join(work, 'nope.pem')]);
    expect(noKey.code).toBe(2);
    expect(noKey.stderr).toBe(`error: --public-key ${join(work, 'nope.pem')}: cannot read the file (ENOENT)\n`);
    const noDir = await stablepay(['verify-report', join(work, 'nowhere')]);
    expect(noDir.code).toBe(2);
    expect(noDir.stderr).toMatch(/nowhere: not a readable directory/);
  });

  it('replay-delivery re-posts a recorded delivery byte for byte', async () => {
    const json = JSON.parse(await readFile(join(reports, 'conformance.json'), 'utf8'));
    const recorded = json.failures.find((f: { delivery?: unknown }) => f.delivery).delivery;
    const got: { body: string; signature: string | undefined }[] = [];
    const receiver = createServer((req, res) => {
      let body = '';
      req.on('data', (c: Buffer) => (body += c.toString()));
      req.on('end', () => {
        got.push({ body, signature: req.headers['x-service-signature'] as string | undefined });
        res.writeHead(200).end('ok');
      });
    });
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    try {
      const to = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;
      const listed = await stablepay(['replay-delivery', reports, '--list']);
      expect(listed.stdout).toContain(recorded.id);
      const sent = await stablepay(['replay-delivery', join(reports, 'conformance.json'), '--delivery', recorded.id, '--to', to]);
      expect(sent.code).toBe(0);
      expect(sent.stdout).toBe(`${recorded.id} -> ${to}: 200 ok\n`);
      expect(got).toEqual([{ body: Buffer.from(recorded.bodyBase64, 'base64').toString(), signature: recorded.signature.header }]);
    } finally {
      receiver.close();
    }
    const usage = await Promise.all([
      stablepay(['replay-delivery', reports, '--to', 'http://127.0.0.1:9/x']),
      stablepay(['replay-delivery', reports, '--delivery', recorded.id, '--to', 'ftp://x']),
      stablepay(['replay-delivery', reports, '--delivery', recorded.id, '--to', 'http://127.0.0.1:9/x', '--resign'], {
        STABLEPAY_WEBHOOK_SECRET: '',
      }),
    ]);
    expect(usage.map((u) => u.code)).toEqual([2, 2, 2]);
    expect(usage[0]!.stderr).toMatch(/choose one with --delivery/);
    expect(usage[2]!.stderr).toMatch(/set STABLEPAY_WEBHOOK_SECRET/);
  });

  it('--sign generates a key, prints its public half, and that key verifies the reports', async () => {
    const dir = join(work, 'generated-key');
    const signed = await stablepay(
      [
        'conformance',
        '--base-url',
        server.url,
        '--only',
        'auth.unknown-key',
        '--no-webhooks',
        '--report-dir',
        dir,
        '--format',
        'json',
        '--sign',
      ],
      { STABLEPAY_API_KEY: server.simulator.defaultApiKey },
    );
    expect(signed.code).toBe(0);
    // The key goes to stderr: stdout stays empty for machines when there is no console report.
    expect(signed.stdout).toBe('');
    const pem = /-----BEGIN PUBLIC KEY-----\n[^-]+-----END PUBLIC KEY-----\n/.exec(signed.stderr)?.[0];
    expect(pem).toBeDefined();
    expect(await readFile(join(dir, 'signing-key.pub.pem'), 'utf8')).toBe(pem);
    await writeFile(join(work, 'printed.pub.pem'), pem!);
    expect((await stablepay(['verify-report', dir, '--public-key', join(work, 'printed.pub.pem')])).code).toBe(0);
    expect((await stablepay(['verify-report', dir, '--public-key', publicKeyFile])).code).toBe(1);
  });

  it('refuses an unreadable --sign-key and a --record directory before the run starts (exit 2)', async () => {
    const dir = join(work, 'never-written');
    const [missing, asDirectory, consoleOnly] = await Promise.all([
      stablepay(['conformance', '--base-url', server.url, '--report-dir', dir, '--sign-key', join(work, 'missing.pem')], {
        STABLEPAY_API_KEY: server.simulator.defaultApiKey,
      }),
      stablepay(['conformance', '--base-url', server.url, '--report-dir', dir, '--record', work], {
        STABLEPAY_API_KEY: server.simulator.defaultApiKey,
      }),
      stablepay(['conformance', '--base-url', server.url, '--report-dir', dir, '--sign', '--format', 'console'], {
        STABLEPAY_API_KEY: server.simulator.defaultApiKey,
      }),
    ]);
    expect(consoleOnly.code).toBe(2);
    expect(consoleOnly.stderr).toMatch(/^error: --sign: there is nothing to sign with --format console only/);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toBe(`error: --sign-key ${join(work, 'missing.pem')}: cannot read the file (ENOENT)\n`);
    expect(asDirectory.code).toBe(2);
    expect(asDirectory.stderr).toMatch(/--record .*: is a directory/);
    expect(existsSync(dir)).toBe(false);
  });
});
