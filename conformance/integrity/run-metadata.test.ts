// One run-metadata object per run, rendered by every report: the contract's and the catalogue's SHA-256 are those of
// the files as shipped, and each report (JSON, JUnit, HTML, Markdown) shows them with the seed, target and times.
import { PremiseBook } from '../premises/book.ts';
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { openapiPath, requirementsPath } from '@stablepay/contract/paths';
import type { RunServices } from '../context.ts';
import { Recorder } from '../http/recorder.ts';
import { SecretRegistry } from '../http/redact.ts';
import { resolveOptions } from '../options.ts';
import { renderHtml } from '../reports/html.ts';
import { renderJson } from '../reports/json.ts';
import { renderJunit } from '../reports/junit.ts';
import { renderMarkdown } from '../reports/markdown.ts';
import { assembleResult, type RunPlan } from '../runner.ts';
import type { CatalogueRequirement } from '../types.ts';
import { metadataLines } from '../run-metadata.ts';

const KEY = 'pk_metadatasecret0123456789abcdefghij';
const sha256 = (path: string) => createHash('sha256').update(readFileSync(path)).digest('hex');
const catalogue: CatalogueRequirement[] = [{ id: 'DOC-A', section: '§4', statement: 's', level: 'documented', tags: [] }];

function run(started?: Parameters<typeof assembleResult>[4]['started']) {
  const secrets = new SecretRegistry();
  secrets.add(KEY, 'STABLEPAY_API_KEY');
  const options = resolveOptions({ baseUrl: 'http://127.0.0.1:4000', apiKey: KEY, seed: 4242, write: () => {} });
  const services = {
    options,
    secrets,
    recorder: new Recorder(),
    catalogue: new Map(catalogue.map((r) => [r.id, r])),
    premises: new PremiseBook({}),
  } as unknown as RunServices;
  const plan: RunPlan = {
    selected: [],
    skipped: [],
    capabilities: { control: true, 'webhook-receiver': true, customer: false },
    capabilityNotes: [],
  };
  const checks = [
    {
      id: 'auth.ok',
      title: 't',
      requirements: ['DOC-A'],
      level: 'documented' as const,
      needs: [],
      tags: [],
      premises: [],
      judged: ['DOC-A'],
      result: 'pass' as const,
      failures: [],
      durationMs: 1,
      cases: 1,
      requests: 1,
    },
  ];
  return assembleResult(checks, plan, services, catalogue, {
    startedAt: new Date(0),
    finishedAt: new Date(2000),
    version: '9.9.9',
    ...(started ? { started } : {}),
  });
}

describe('run metadata', () => {
  it('holds the digests of the shipped contract and catalogue, the seed, the target and the times', () => {
    const { metadata } = run();
    expect(metadata.contract).toEqual({ file: 'openapi.yaml', sha256: sha256(openapiPath), bytes: readFileSync(openapiPath).length });
    expect(metadata.catalogue.sha256).toBe(sha256(requirementsPath));
    expect(metadata.catalogue.requirements).toBe(1);
    expect(metadata.tool.version).toBe('9.9.9');
    expect(metadata.seed).toBe(4242);
    expect(metadata.target).toEqual({ baseUrl: 'http://127.0.0.1:4000', controlUrl: 'http://127.0.0.1:4000/control/v1' });
    expect([metadata.startedAt, metadata.finishedAt]).toEqual(['1970-01-01T00:00:00.000Z', '1970-01-01T00:00:02.000Z']);
  });

  it('is rendered by the JSON, JUnit, HTML and Markdown reports', () => {
    const result = run();
    const contract = sha256(openapiPath);
    const catalogueDigest = sha256(requirementsPath);
    expect(JSON.parse(renderJson(result)).metadata.contract.sha256).toBe(contract);
    const junit = renderJunit(result);
    expect(junit).toContain(`<property name="stablepay.contract.sha256" value="${contract}"/>`);
    expect(junit).toContain(`<property name="stablepay.catalogue.sha256" value="${catalogueDigest}"/>`);
    expect(junit).toContain('<property name="stablepay.seed" value="4242"/>');
    for (const text of [renderHtml(result), renderMarkdown(result)]) {
      for (const fact of [contract, catalogueDigest, '4242', 'http://127.0.0.1:4000', '9.9.9', '1970-01-01T00:00:02.000Z'])
        expect(text).toContain(fact);
    }
  });

  it('names the command or the image digest of a target the suite started, with secrets scrubbed', () => {
    const command = run({ kind: 'command', command: `node server.js --key ${KEY}` });
    expect(command.metadata.target.started).toEqual({ kind: 'command', command: 'node server.js --key [REDACTED:STABLEPAY_API_KEY]' });
    const digest = `sha256:${'e'.repeat(64)}`;
    const image = run({ kind: 'image', image: 'stablepay:local', imageId: digest, repoDigests: [] });
    expect(metadataLines(image.metadata)).toContainEqual(['Target started by', `image stablepay:local (${digest})`]);
    expect(renderJunit(image)).toContain(`<property name="stablepay.target.imageId" value="${digest}"/>`);
  });
});
