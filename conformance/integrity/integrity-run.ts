// The integrity and reproduction steps of a run, around the checks: before anything starts, the signing key is read
// (or generated) and the record path checked, so a bad flag fails first with exit 2; after the reports are written,
// the traffic is recorded as HAR; the report files are signed last, once a black-box target has stopped.
import { existsSync, statSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { dirname, isAbsolute, join, relative, resolve } from 'node:path';
import { DEFAULTS, type ReportFormat } from '../defaults.ts';
import type { Recorder } from '../http/recorder.ts';
import type { SecretRegistry } from '../http/redact.ts';
import { UsageError } from '../options.ts';
import { renderHar, type ReceivedDeliveries } from './har.ts';
import type { IntegrityOptions } from '../integrity-options.ts';
import type { RunMetadata } from '../run-metadata.ts';
import { generateSigningKey, loadSigningKey, signReportDir, type SigningKey } from './signing.ts';

export interface IntegrityPlan {
  key: SigningKey | null;
  recordPath: string | null;
}

export async function prepareIntegrity(options: IntegrityOptions & { formats?: ReportFormat[] }): Promise<IntegrityPlan> {
  let recordPath: string | null = null;
  if (options.record !== undefined) {
    if (!options.record.trim()) throw new UsageError('--record: give a file name, e.g. --record reports/traffic.har');
    recordPath = resolve(options.record);
    if (existsSync(recordPath) && statSync(recordPath).isDirectory())
      throw new UsageError(`--record ${options.record}: is a directory; give a file name such as ${join(options.record, 'traffic.har')}`);
  }
  let key: SigningKey | null = null;
  if (options.signKey !== undefined || options.sign) {
    const formats = options.formats ?? DEFAULTS.formats;
    if (!formats.some((format) => format !== 'console'))
      throw new UsageError(
        `--sign${options.signKey !== undefined ? '-key' : ''}: there is nothing to sign with --format console only; add json, junit, html or md`,
      );
    key = options.signKey !== undefined ? await loadSigningKey(options.signKey) : await generateSigningKey();
  }
  return { key, recordPath };
}

export interface RecordInputs {
  recorder: Recorder;
  secrets: SecretRegistry;
  tool: { name: string; version: string };
  /** The deliveries the suite's webhook receiver got, recorded in the HAR too. */
  received?: ReceivedDeliveries;
  /** Where the summary line goes (the console, or stderr when the console format is off). */
  write: (text: string) => void;
}

/** Writes the run's traffic as HAR when --record asked for it; returns the file written. */
export async function recordTraffic(plan: IntegrityPlan, inputs: RecordInputs): Promise<string[]> {
  if (!plan.recordPath) return [];
  await mkdir(dirname(plan.recordPath), { recursive: true });
  await writeFile(plan.recordPath, renderHar(inputs.recorder.all(), inputs.secrets, inputs.tool, inputs.received), 'utf8');
  const deliveries = inputs.received?.deliveries.length ?? 0;
  inputs.write(
    `traffic: ${inputs.recorder.size} exchanges${deliveries ? ` and ${deliveries} webhook deliveries` : ''} recorded as HAR 1.2 in ${plan.recordPath}\n`,
  );
  return [plan.recordPath];
}

export interface SignInputs {
  reportDir: string;
  /** Files this run wrote (absolute or relative to the working directory); those inside reportDir are signed. */
  files: string[];
  metadata: RunMetadata;
  /** Where the key and the summary line go. */
  write: (text: string) => void;
}

/**
 * Signs the report files. Runs last, after a black-box target was stopped: its log (target.log in the report
 * directory) is complete by then and is signed with the reports.
 */
export async function signReports(plan: IntegrityPlan, inputs: SignInputs): Promise<string[]> {
  if (!plan.key) return [];
  const dir = resolve(inputs.reportDir);
  const inside = (path: string) => {
    const rel = relative(dir, resolve(path));
    return rel && !rel.startsWith('..') && !isAbsolute(rel) ? rel : null;
  };
  const candidates = [...inputs.files, join(dir, 'target.log')].filter((path) => existsSync(path));
  const files = candidates.map(inside).filter((rel): rel is string => rel !== null);
  const signed = await signReportDir(dir, files, plan.key, inputs.metadata);
  inputs.write(
    `signed: ${signed.entries.length} report files in ${signed.manifest} (Ed25519 key ${plan.key.thumbprint}); check with: stablepay verify-report ${inputs.reportDir}${plan.key.generated ? ' --public-key <the key below, saved>' : ' --public-key <your public key>'}\n`,
  );
  if (plan.key.generated)
    inputs.write(`public key of this run's generated signing key (the private half is not kept):\n${plan.key.publicKeyPem}`);
  return [signed.manifest, signed.publicKey];
}
