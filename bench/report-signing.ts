// Report size, and what signing and verifying a report directory cost, next to a plain SHA-256 over the same files
// measured in the same run (the floor: signing must read and hash every file once). The reports come from one real
// run of the suite (--skip slow, every report format, --record) against an in-process simulator with 3 injected
// faults, so failures, reproductions and webhook evidence are in them.
// Run: npx tsx bench/report-signing.ts [--rounds 30] [--readme]   (--readme rewrites its section of bench/README.md)
import { createHash } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import os from 'node:os';
import { join } from 'node:path';
import { runConformance } from '@stablepay/conformance';
import { quietLogger } from '@stablepay/conformance/test-support/simulator';
import {
  generateSigningKey,
  listFiles,
  signReportDir,
  verifyReportDir,
  MANIFEST_FILE,
  PUBLIC_KEY_FILE,
} from '@stablepay/conformance/signing';
import { startServer } from '@stablepay/simulator/server';

const README = new URL('./README.md', import.meta.url);
const START = '<!-- bench:report-signing:start -->';
const END = '<!-- bench:report-signing:end -->';
const FAULTS = ['signature-over-body-only', 'fee-truncated-zero-decimal', 'cancel-from-processing'];
const argIndex = process.argv.indexOf('--rounds');
const ROUNDS = argIndex === -1 ? 30 : Number(process.argv[argIndex + 1]);

const dir = await mkdtemp(join(os.tmpdir(), 'bench-report-signing-'));
const server = await startServer({ host: '127.0.0.1', port: 0, logger: quietLogger, faults: FAULTS as never });
let runSeconds: number;
let failed: number;
try {
  const t0 = performance.now();
  const outcome = await runConformance({
    baseUrl: server.url,
    apiKey: server.simulator.defaultApiKey,
    skip: ['slow'],
    seed: 1,
    reportDir: dir,
    formats: ['json', 'junit', 'html', 'md'],
    record: join(dir, 'traffic.har'),
    progress: false,
    write: () => {},
  });
  runSeconds = (performance.now() - t0) / 1000;
  failed = outcome.result.summary.counts.failed;
} finally {
  await server.close();
}

const files = (await listFiles(dir)).filter((f) => f !== MANIFEST_FILE && f !== PUBLIC_KEY_FILE);
const sizes = await Promise.all(files.map(async (f) => [f, (await stat(join(dir, f))).size] as const));
const key = await generateSigningKey();

async function plainSha256(): Promise<void> {
  for (const f of files)
    createHash('sha256')
      .update(await readFile(join(dir, f)))
      .digest('hex');
}
async function sign(): Promise<void> {
  await signReportDir(dir, files, key);
}
async function verify(): Promise<void> {
  const outcome = await verifyReportDir(dir);
  if (!outcome.ok) throw new Error(`verification failed: ${outcome.problems.join('; ')}`);
}

const cases: [string, () => Promise<void>][] = [
  ['plain SHA-256 of every file (reference)', plainSha256],
  ['sign (manifest + Ed25519 JWS, both files written)', sign],
  ['verify (signature + every file re-hashed + directory listed)', verify],
];
const samples = new Map<string, number[]>(cases.map(([name]) => [name, []]));
await sign();
for (let round = 0; round < ROUNDS + 3; round += 1) {
  for (const [name, fn] of cases) {
    const t0 = performance.now();
    await fn();
    if (round >= 3) samples.get(name)!.push(performance.now() - t0); // three warm-up rounds
  }
}
await rm(dir, { recursive: true, force: true });

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
const p95 = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length * 0.95)]!;
const reference = median(samples.get(cases[0]![0])!);
const total = sizes.reduce((sum, [, size]) => sum + size, 0);
const kb = (bytes: number) => `${(bytes / 1024).toLocaleString('en-US', { maximumFractionDigits: 1 })} KiB`;
const lines = [
  START,
  `Machine: ${os.cpus().length} cores (${os.cpus()[0]?.model.trim() ?? '?'}), Node ${process.version}, load average ${os.loadavg()[0]!.toFixed(1)} at the end, ${new Date().toISOString().slice(0, 10)}. Command: \`npx tsx bench/report-signing.ts --rounds ${ROUNDS}\`.`,
  '',
  `The reports of one run (${runSeconds.toFixed(1)} s, ${failed} failed checks) with faults ${FAULTS.map((f) => `\`${f}\``).join(', ')}, \`--skip slow\`, every file format and \`--record\`:`,
  '',
  '| file | size |',
  '|---|---:|',
  ...sizes.map(([file, size]) => `| ${file} | ${kb(size)} |`),
  `| **total** | **${kb(total)}** |`,
  '',
  `Signing and verifying that directory, ${ROUNDS} rounds interleaved after 3 warm-up rounds:`,
  '',
  '| operation | median (ms) | p95 (ms) | × plain SHA-256 |',
  '|---|---:|---:|---:|',
  ...cases.map(([name]) => {
    const values = samples.get(name)!;
    return `| ${name} | ${median(values).toFixed(2)} | ${p95(values).toFixed(2)} | ${(median(values) / reference).toFixed(1)} |`;
  }),
  END,
];
const section = lines.join('\n');
process.stdout.write(`${section}\n`);
if (process.argv.includes('--readme')) {
  const readme = readFileSync(README, 'utf8');
  writeFileSync(
    README,
    readme.includes(START)
      ? readme.replace(new RegExp(`${START}[\\s\\S]*?${END}`), section)
      : `${readme.trimEnd()}\n\n## Reports: size, signing and verification\n\n${section}\n`,
  );
}
