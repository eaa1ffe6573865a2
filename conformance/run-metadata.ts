// What a report was produced from, built once per run and rendered by every report: the tool's version, the
// contract and catalogue the checks were judged against (SHA-256 of the files as read), the seed, the target (its
// base URL, and when the suite started it, the command or the container image with its digest) and the run's times.
// An auditor can tie a report to an exact contract and target; a re-run with the same seed regenerates the inputs.
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { openapiPath, requirementsPath } from '@stablepay/contract/paths';

/** The implementation under test as the suite knows it. */
export interface TargetIdentity {
  baseUrl: string;
  controlUrl: string | null;
  /** How the suite started the target in a black-box run; absent when it was already running. */
  started?: { kind: 'command'; command: string } | { kind: 'image'; image: string; imageId: string | null; repoDigests: string[] };
}

export interface FileIdentity {
  /** Path inside the package, e.g. `openapi.yaml`. */
  file: string;
  sha256: string;
  bytes: number;
}

export interface RunMetadata {
  tool: { name: string; version: string };
  contract: FileIdentity;
  catalogue: FileIdentity & { requirements: number };
  seed: number;
  target: TargetIdentity;
  startedAt: string;
  finishedAt: string;
}

export function fileIdentity(path: string, file: string): FileIdentity {
  const bytes = readFileSync(path);
  return { file, sha256: createHash('sha256').update(bytes).digest('hex'), bytes: bytes.length };
}

export function buildRunMetadata(input: {
  version: string;
  seed: number;
  target: TargetIdentity;
  startedAt: Date;
  finishedAt: Date;
  requirements: number;
}): RunMetadata {
  return {
    tool: { name: 'stablepay conformance', version: input.version },
    contract: fileIdentity(openapiPath, 'openapi.yaml'),
    catalogue: { ...fileIdentity(requirementsPath, 'contract/requirements.yaml'), requirements: input.requirements },
    seed: input.seed,
    target: input.target,
    startedAt: input.startedAt.toISOString(),
    finishedAt: input.finishedAt.toISOString(),
  };
}

/** One line per fact, as `label: value`, in the order every report shows them. */
export function metadataLines(metadata: RunMetadata): [string, string][] {
  const { target } = metadata;
  const lines: [string, string][] = [
    ['Tool', `${metadata.tool.name} ${metadata.tool.version}`],
    ['Contract', `${metadata.contract.file} sha256:${metadata.contract.sha256}`],
    ['Catalogue', `${metadata.catalogue.file} sha256:${metadata.catalogue.sha256} (${metadata.catalogue.requirements} requirements)`],
    ['Seed', String(metadata.seed)],
    ['Target', target.baseUrl],
  ];
  if (target.controlUrl) lines.push(['Control API', target.controlUrl]);
  if (target.started?.kind === 'command') lines.push(['Target started by', `command: ${target.started.command}`]);
  if (target.started?.kind === 'image') {
    const digest = target.started.repoDigests[0] ?? target.started.imageId ?? 'unknown';
    lines.push(['Target started by', `image ${target.started.image} (${digest})`]);
  }
  lines.push(['Started', metadata.startedAt], ['Finished', metadata.finishedAt]);
  return lines;
}
