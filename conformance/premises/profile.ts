// The implementation profile: what an implementation declares where the spec says "not shown" and the suite cannot
// observe it (DESIGN §2 "Premises"). It is the `profile` section of stablepay.config.*, or a file of its own given
// with --profile; profile.schema.json validates it (an unknown key is an error) and the placeholders of each body
// template are checked against the ones the suite fills in. Problems come back with their path so a caller holding
// the YAML document can name the line (cli/config-file.ts, readProfileFile below).
import { readFileSync } from 'node:fs';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { isMap, LineCounter, parseDocument, type Document } from 'yaml';
import { UsageError } from '../usage-error.ts';
import type { Declarations } from './book.ts';
import { PREMISES, PREMISE_IDS } from './definitions.ts';
import schema from './profile.schema.json' with { type: 'json' };
import { placeholdersOf } from './templates.ts';

export type ImplementationProfile = Record<string, unknown>;

export interface ProfileProblem {
  /** Path inside the profile (`['apiKeys', 'colour']`). */
  path: string[];
  message: string;
}

/** The placeholders each body template may use, and the ones it must use (at least one of). */
const PLACEHOLDERS: Record<string, { allowed: string[]; oneOf: string[] }> = {
  'apiKeys.createBody': { allowed: ['name'], oneOf: [] },
  'apiKeys.expiringBody': { allowed: ['name', 'expiresAt', 'expiresInDays'], oneOf: ['expiresAt', 'expiresInDays'] },
  'apiKeys.neverExpiringBody': { allowed: ['name'], oneOf: [] },
  'apiKeys.whitelistBody': { allowed: ['name', 'ipWhitelist'], oneOf: ['ipWhitelist'] },
  'webhooks.createBody': { allowed: ['url'], oneOf: ['url'] },
  'webhooks.updateBody': { allowed: ['url', 'enabled'], oneOf: ['url', 'enabled'] },
};

const validate = new Ajv2020({ allErrors: true, strict: false }).compile(schema);

function valueAt(profile: ImplementationProfile, dotted: string): unknown {
  let node: unknown = profile;
  for (const segment of dotted.split('.'))
    node = node !== null && typeof node === 'object' ? (node as Record<string, unknown>)[segment] : undefined;
  return node;
}

/** Every problem of a profile: schema violations, then templates using placeholders the suite does not fill. */
export function profileProblems(profile: unknown): ProfileProblem[] {
  if (!validate(profile)) {
    return (validate.errors ?? []).map((error) => {
      const path = error.instancePath
        .split('/')
        .filter(Boolean)
        .map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'));
      const extra = (error.params as { additionalProperty?: string }).additionalProperty;
      if (error.keyword === 'additionalProperties' && extra !== undefined) {
        return { path: [...path, extra], message: `unknown key "${extra}" (known: ${Object.keys(knownKeysAt(path)).join(', ')})` };
      }
      return { path, message: error.message ?? error.keyword };
    });
  }
  const problems: ProfileProblem[] = [];
  for (const [key, rule] of Object.entries(PLACEHOLDERS)) {
    const template = valueAt(profile as ImplementationProfile, key);
    if (template === undefined) continue;
    const used = placeholdersOf(template);
    const unknown = used.filter((name) => !rule.allowed.includes(name));
    if (unknown.length > 0)
      problems.push({
        path: key.split('.'),
        message: `unknown placeholder ${unknown.map((n) => `{${n}}`).join(', ')} (this body takes ${rule.allowed.map((n) => `{${n}}`).join(', ')})`,
      });
    else if (rule.oneOf.length > 0 && !rule.oneOf.some((name) => used.includes(name)))
      problems.push({ path: key.split('.'), message: `the body must use ${rule.oneOf.map((n) => `{${n}}`).join(' or ')}` });
  }
  return problems;
}

function knownKeysAt(path: string[]): Record<string, unknown> {
  let node: { properties?: Record<string, unknown> } = schema as { properties?: Record<string, unknown> };
  for (const segment of path) node = (node.properties?.[segment] ?? {}) as { properties?: Record<string, unknown> };
  return node.properties ?? {};
}

/** Premise values a valid profile declares, keyed by premise id. */
export function declarationsOf(profile: ImplementationProfile): Declarations {
  const declared: Record<string, unknown> = {};
  for (const id of PREMISE_IDS) {
    const value = valueAt(profile, PREMISES[id].profileKey);
    if (value === undefined) continue;
    // Minimums: the declared currencies over the simulator's for the rest.
    declared[id] = id === 'payments.minimum-amounts' ? { ...(PREMISES[id].simulatorDefault as object), ...(value as object) } : value;
  }
  return declared as Declarations;
}

/** The 1-based line of a path in a YAML/JSON document, or null. */
export function lineOfPath(
  document: Document,
  lines: LineCounter,
  path: (string | number)[],
  base: (string | number)[] = [],
): number | null {
  for (let depth = path.length; depth >= 0; depth--) {
    const node = document.getIn([...base, ...path.slice(0, depth)], true) as { range?: [number, number, number] } | undefined;
    if (node?.range) {
      // The key of the last segment sits on the line of its value (or the line before, for a nested map).
      const parent = document.getIn([...base, ...path.slice(0, depth - 1)], true);
      if (depth > 0 && isMap(parent)) {
        const pair = parent.items.find(
          (item) => String((item.key as { value?: unknown } | null)?.value ?? item.key) === String(path[depth - 1]),
        );
        const keyRange = (pair?.key as { range?: [number, number, number] } | null)?.range;
        if (keyRange) return lines.linePos(keyRange[0]).line;
      }
      return lines.linePos(node.range[0]).line;
    }
  }
  return null;
}

/** A profile file of its own (--profile): JSON or YAML, validated, problems as `file:line: message`. */
export function readProfileFile(file: string): ImplementationProfile {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    throw new UsageError(`--profile: cannot read ${file}: ${(error as Error).message}`);
  }
  const lines = new LineCounter();
  const document = parseDocument(text, { lineCounter: lines, prettyErrors: false, uniqueKeys: true });
  if (document.errors.length > 0) {
    const error = document.errors[0]!;
    throw new UsageError(
      `${file}:${lines.linePos(error.pos[0]).line}: not valid ${file.endsWith('.json') ? 'JSON' : 'YAML'}: ${error.message.split('\n')[0]}`,
    );
  }
  const profile = (document.toJSON() ?? {}) as ImplementationProfile;
  const problem = profileProblems(profile)[0];
  if (problem) {
    const line = lineOfPath(document, lines, problem.path);
    throw new UsageError(
      `${file}${line === null ? '' : `:${line}`}: profile${problem.path.length ? `.${problem.path.join('.')}` : ''}: ${problem.message}`,
    );
  }
  return profile;
}

/**
 * The declarations of `runConformance({ profile })`: a file path (--profile), or the profile itself (the config file's
 * `profile` section, already checked there with line numbers, or a caller's object).
 */
export function declarationsFrom(profile: string | ImplementationProfile | undefined): Declarations {
  if (profile === undefined) return {};
  if (typeof profile === 'string') return declarationsOf(readProfileFile(profile));
  const problem = profileProblems(profile)[0];
  if (problem) throw new UsageError(`profile${problem.path.length ? `.${problem.path.join('.')}` : ''}: ${problem.message}`);
  return declarationsOf(profile);
}
