// Tamper-evident reports. After a run writes its report files, a manifest lists every one of them with its SHA-256
// and size; the manifest is signed with Ed25519 as a compact JWS (RFC 7515, alg EdDSA, via the maintained `jose`
// library) and written as `manifest.jws` beside the files, with the public key as `signing-key.pub.pem`.
// `verifyReportDir` checks the signature and then every byte of every file: a changed, missing or extra file fails.
import { createHash, createPrivateKey, createPublicKey, generateKeyPairSync, type KeyObject } from 'node:crypto';
import { readdir, readFile, writeFile } from 'node:fs/promises';
import { readFileSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { calculateJwkThumbprint, CompactSign, compactVerify, decodeProtectedHeader, type JWK } from 'jose';
import { UsageError } from '../options.ts';
import type { RunMetadata } from '../run-metadata.ts';

export const MANIFEST_FILE = 'manifest.jws';
export const PUBLIC_KEY_FILE = 'signing-key.pub.pem';
/** Files of the directory the manifest does not list: the signature itself and the key that checks it. */
const UNLISTED = new Set([MANIFEST_FILE, PUBLIC_KEY_FILE]);
const MANIFEST_TYPE = 'stablepay-report-manifest+jws';

export interface ManifestEntry {
  /** Relative to the report directory, `/`-separated. */
  path: string;
  sha256: string;
  bytes: number;
}

export interface Manifest {
  type: 'stablepay-report-manifest';
  version: 1;
  signedAt: string;
  /** The run the files report on (tool, contract and catalogue digests, seed, target, times). */
  run?: RunMetadata;
  files: ManifestEntry[];
}

export interface SigningKey {
  privateKey: KeyObject;
  publicKey: KeyObject;
  /** RFC 7638 JWK thumbprint (SHA-256, base64url) of the public key: short enough to print and compare. */
  thumbprint: string;
  publicKeyPem: string;
  /** True when the key was generated for this run (its private half is never written). */
  generated: boolean;
}

async function describeKey(privateKey: KeyObject, generated: boolean): Promise<SigningKey> {
  const publicKey = createPublicKey(privateKey);
  return {
    privateKey,
    publicKey,
    thumbprint: await calculateJwkThumbprint(publicKey.export({ format: 'jwk' }) as JWK),
    publicKeyPem: publicKey.export({ type: 'spki', format: 'pem' }).toString(),
    generated,
  };
}

/** Reads an Ed25519 private key (PEM, PKCS#8); an unreadable file or another kind of key is a usage error naming the file. */
export async function loadSigningKey(path: string): Promise<SigningKey> {
  let pem: string;
  try {
    pem = readFileSync(path, 'utf8');
  } catch (error) {
    throw new UsageError(`--sign-key ${path}: cannot read the file (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`);
  }
  let key: KeyObject;
  try {
    key = createPrivateKey(pem);
  } catch {
    throw new UsageError(`--sign-key ${path}: not a PEM private key (expected an Ed25519 key: openssl genpkey -algorithm ed25519)`);
  }
  if (key.asymmetricKeyType !== 'ed25519')
    throw new UsageError(
      `--sign-key ${path}: an ${key.asymmetricKeyType ?? 'unknown'} key, expected Ed25519 (openssl genpkey -algorithm ed25519)`,
    );
  return describeKey(key, false);
}

export async function generateSigningKey(): Promise<SigningKey> {
  return describeKey(generateKeyPairSync('ed25519').privateKey, true);
}

/** Reads an Ed25519 public key (PEM, SPKI; a private key's public half also works); problems name the file. */
export function loadPublicKey(path: string): KeyObject {
  let pem: string;
  try {
    pem = readFileSync(path, 'utf8');
  } catch (error) {
    throw new UsageError(
      `--public-key ${path}: cannot read the file (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`,
    );
  }
  let key: KeyObject;
  try {
    key = createPublicKey(pem);
  } catch {
    throw new UsageError(`--public-key ${path}: not a PEM public key`);
  }
  if (key.asymmetricKeyType !== 'ed25519')
    throw new UsageError(`--public-key ${path}: an ${key.asymmetricKeyType ?? 'unknown'} key, expected Ed25519`);
  return key;
}

export function sha256Hex(bytes: Uint8Array): string {
  return createHash('sha256').update(bytes).digest('hex');
}

async function entryOf(dir: string, path: string): Promise<ManifestEntry> {
  const bytes = await readFile(join(dir, path));
  return { path, sha256: sha256Hex(bytes), bytes: bytes.length };
}

/** Every regular file under `dir`, relative and `/`-separated, sorted. */
export async function listFiles(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  return entries
    .filter((entry) => entry.isFile())
    .map((entry) => relative(dir, join(entry.parentPath, entry.name)).split(sep).join('/'))
    .sort();
}

/**
 * Signs the given files of `dir` (paths relative to it): writes `manifest.jws` and `signing-key.pub.pem`.
 * Returns the paths written.
 */
export async function signReportDir(
  dir: string,
  files: string[],
  key: SigningKey,
  run?: RunMetadata,
): Promise<{ manifest: string; publicKey: string; entries: ManifestEntry[] }> {
  const paths = [...new Set(files.map((f) => f.split(sep).join('/')))].filter((f) => !UNLISTED.has(f)).sort();
  const entries = await Promise.all(paths.map((path) => entryOf(dir, path)));
  const manifest: Manifest = {
    type: 'stablepay-report-manifest',
    version: 1,
    signedAt: new Date().toISOString(),
    ...(run ? { run } : {}),
    files: entries,
  };
  const jws = await new CompactSign(new TextEncoder().encode(JSON.stringify(manifest)))
    .setProtectedHeader({ alg: 'EdDSA', typ: MANIFEST_TYPE, cty: 'json', kid: key.thumbprint })
    .sign(key.privateKey);
  const manifestPath = join(dir, MANIFEST_FILE);
  const publicKeyPath = join(dir, PUBLIC_KEY_FILE);
  await writeFile(manifestPath, `${jws}\n`, 'utf8');
  await writeFile(publicKeyPath, key.publicKeyPem, 'utf8');
  return { manifest: manifestPath, publicKey: publicKeyPath, entries };
}

export interface VerifyOutcome {
  ok: boolean;
  /** One sentence per problem, each naming the file. */
  problems: string[];
  /** Files whose bytes match the signed digests. */
  verified: string[];
  keyThumbprint: string | null;
  /** `given` (--public-key) or `report-dir` (the key the directory carries: proves integrity, not who signed). */
  keySource: 'given' | 'report-dir';
  manifest: Manifest | null;
}

/** `dir` must exist (a usage error otherwise); every other problem is a verification failure. */
export async function verifyReportDir(dir: string, publicKey?: KeyObject): Promise<VerifyOutcome> {
  let present: string[];
  try {
    present = await listFiles(dir);
  } catch (error) {
    throw new UsageError(`${dir}: not a readable directory (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`);
  }
  const keySource = publicKey ? 'given' : 'report-dir';
  const outcome: VerifyOutcome = { ok: false, problems: [], verified: [], keyThumbprint: null, keySource, manifest: null };
  if (!present.includes(MANIFEST_FILE)) {
    outcome.problems.push(`${MANIFEST_FILE} is missing: the directory is not a signed report, or its signature was removed`);
    return outcome;
  }
  let key = publicKey;
  if (!key) {
    try {
      key = createPublicKey(await readFile(join(dir, PUBLIC_KEY_FILE), 'utf8'));
    } catch {
      outcome.problems.push(`${PUBLIC_KEY_FILE} is missing or not a public key, and no --public-key was given`);
      return outcome;
    }
  }
  outcome.keyThumbprint = await calculateJwkThumbprint(key.export({ format: 'jwk' }) as JWK);
  const jws = (await readFile(join(dir, MANIFEST_FILE), 'utf8')).trim();
  let manifest: Manifest;
  try {
    const header = decodeProtectedHeader(jws);
    if (header.typ !== MANIFEST_TYPE) throw new Error(`typ is ${String(header.typ)}`);
    const verified = await compactVerify(jws, key, { algorithms: ['EdDSA', 'Ed25519'] });
    manifest = JSON.parse(new TextDecoder().decode(verified.payload)) as Manifest;
  } catch (error) {
    outcome.problems.push(
      `${MANIFEST_FILE}: the signature does not verify with key ${outcome.keyThumbprint} (${(error as Error).message})`,
    );
    return outcome;
  }
  outcome.manifest = manifest;
  const listed = new Map(manifest.files.map((entry) => [entry.path, entry]));
  for (const entry of manifest.files) {
    if (entry.path.startsWith('/') || entry.path.split('/').includes('..')) {
      outcome.problems.push(`${entry.path}: the manifest names a path outside the directory`);
      continue;
    }
    if (!present.includes(entry.path)) {
      outcome.problems.push(`${entry.path}: missing (signed, ${entry.bytes} bytes)`);
      continue;
    }
    const actual = await entryOf(dir, entry.path);
    if (actual.sha256 !== entry.sha256)
      outcome.problems.push(
        `${entry.path}: changed (${actual.bytes} bytes, sha256 ${actual.sha256}; signed ${entry.bytes} bytes, sha256 ${entry.sha256})`,
      );
    else outcome.verified.push(entry.path);
  }
  for (const path of present) {
    if (!listed.has(path) && !UNLISTED.has(path)) outcome.problems.push(`${path}: extra file, not in the signed manifest`);
  }
  outcome.ok = outcome.problems.length === 0;
  return outcome;
}
