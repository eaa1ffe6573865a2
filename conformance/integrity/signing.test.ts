// Signed report directories: the manifest (JWS, EdDSA) verifies untouched, and any changed byte, missing or extra
// file, or another key fails verification naming the file; bad key files are usage errors naming the file.
import { generateKeyPairSync } from 'node:crypto';
import { mkdtemp, readFile, rm, writeFile, mkdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { decodeProtectedHeader } from 'jose';
import { describe, expect, it } from 'vitest';
import { UsageError } from '../options.ts';
import {
  generateSigningKey,
  loadPublicKey,
  loadSigningKey,
  MANIFEST_FILE,
  PUBLIC_KEY_FILE,
  signReportDir,
  verifyReportDir,
} from './signing.ts';

const FILES: Record<string, string> = {
  'conformance.json': '{"a":1}\n',
  'junit.xml': '<testsuites/>\n',
  'conformance.html': '<p>ok</p>\n',
  'sub/traffic.har': '{"log":{}}\n',
};

async function signedDir(): Promise<{ dir: string; publicPem: string }> {
  const dir = await mkdtemp(join(tmpdir(), 'signed-report-'));
  await mkdir(join(dir, 'sub'));
  for (const [path, text] of Object.entries(FILES)) await writeFile(join(dir, path), text);
  const key = await generateSigningKey();
  await signReportDir(dir, Object.keys(FILES), key);
  return { dir, publicPem: key.publicKeyPem };
}

describe('signed report directories', () => {
  it('sign every listed file in a JWS the directory key verifies', async () => {
    const { dir } = await signedDir();
    const outcome = await verifyReportDir(dir);
    expect(outcome.problems).toEqual([]);
    expect(outcome.ok).toBe(true);
    expect(outcome.verified).toEqual(Object.keys(FILES).sort());
    expect(outcome.keySource).toBe('report-dir');
    const jws = (await readFile(join(dir, MANIFEST_FILE), 'utf8')).trim();
    expect(jws.split('.')).toHaveLength(3);
    expect(decodeProtectedHeader(jws)).toMatchObject({ alg: 'EdDSA', typ: 'stablepay-report-manifest+jws' });
    await rm(dir, { recursive: true });
  });

  it.each(Object.keys(FILES))('fail when one byte of %s changes, naming it', async (path) => {
    const { dir } = await signedDir();
    const bytes = await readFile(join(dir, path));
    bytes[0] = bytes[0]! ^ 1;
    await writeFile(join(dir, path), bytes);
    const outcome = await verifyReportDir(dir);
    expect(outcome.ok).toBe(false);
    expect(outcome.problems).toHaveLength(1);
    expect(outcome.problems[0]).toMatch(new RegExp(`^${path}: changed`));
    await rm(dir, { recursive: true });
  });

  it('name a missing and an extra file, and a manifest that was removed', async () => {
    const { dir } = await signedDir();
    await rm(join(dir, 'junit.xml'));
    await writeFile(join(dir, 'added.txt'), 'x');
    const outcome = await verifyReportDir(dir);
    expect(outcome.problems.sort()).toEqual(['added.txt: extra file, not in the signed manifest', 'junit.xml: missing (signed, 14 bytes)']);
    await rm(join(dir, MANIFEST_FILE));
    expect((await verifyReportDir(dir)).problems[0]).toMatch(/^manifest\.jws is missing/);
    await rm(dir, { recursive: true });
  });

  it('refuse a manifest re-signed with another key when the signer key is given', async () => {
    const { dir, publicPem } = await signedDir();
    const keyFile = join(dir, '..', `${dir.split('/').pop()}-signer.pub.pem`);
    await writeFile(keyFile, publicPem);
    expect((await verifyReportDir(dir, loadPublicKey(keyFile))).ok).toBe(true);
    // An attacker edits a file and signs again with a key of their own (written into the directory as well).
    await writeFile(join(dir, 'conformance.json'), '{"a":2}\n');
    await signReportDir(dir, Object.keys(FILES), await generateSigningKey());
    expect((await verifyReportDir(dir)).ok).toBe(true);
    const outcome = await verifyReportDir(dir, loadPublicKey(keyFile));
    expect(outcome.ok).toBe(false);
    expect(outcome.problems[0]).toMatch(/^manifest\.jws: the signature does not verify/);
    await rm(dir, { recursive: true });
    await rm(keyFile);
  });

  it('load an Ed25519 PEM key and refuse unreadable files and other kinds of key, naming the file', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'sign-keys-'));
    const ed = generateKeyPairSync('ed25519');
    const rsa = generateKeyPairSync('rsa', { modulusLength: 1024 });
    await writeFile(join(dir, 'ed.pem'), ed.privateKey.export({ type: 'pkcs8', format: 'pem' }));
    await writeFile(join(dir, 'rsa.pem'), rsa.privateKey.export({ type: 'pkcs8', format: 'pem' }));
    await writeFile(join(dir, 'junk.pem'), 'not a key');
    const key = await loadSigningKey(join(dir, 'ed.pem'));
    expect(key.generated).toBe(false);
    expect(key.publicKeyPem).toBe(ed.publicKey.export({ type: 'spki', format: 'pem' }));
    await expect(loadSigningKey(join(dir, 'missing.pem'))).rejects.toThrow(
      new UsageError(`--sign-key ${join(dir, 'missing.pem')}: cannot read the file (ENOENT)`),
    );
    await expect(loadSigningKey(join(dir, 'rsa.pem'))).rejects.toThrow(/rsa\.pem: an rsa key, expected Ed25519/);
    await expect(loadSigningKey(join(dir, 'junk.pem'))).rejects.toThrow(/junk\.pem: not a PEM private key/);
    expect(() => loadPublicKey(join(dir, 'missing.pem'))).toThrow(/--public-key .*missing\.pem: cannot read the file/);
    await rm(dir, { recursive: true });
  });

  it('never list the manifest or the public key in the manifest', async () => {
    const { dir } = await signedDir();
    const outcome = await verifyReportDir(dir);
    expect(outcome.manifest!.files.map((f) => f.path)).not.toContain(PUBLIC_KEY_FILE);
    expect(outcome.manifest!.files.map((f) => f.path)).not.toContain(MANIFEST_FILE);
    await rm(dir, { recursive: true });
  });
});
