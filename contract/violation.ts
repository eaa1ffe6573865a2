// A contract violation and the mapping of JSON Schema errors onto violations. The level of a
// violation follows the contract's markers: an error raised under a node marked
// `x-requirement-level: assumed`, by a keyword listed in that node's `x-assumed-keywords`, or for a
// missing key listed in `x-assumed-required`, is `assumed`; anything else is `documented`.
import type { ErrorObject } from 'ajv';
import type { RequirementLevel } from './catalogue.ts';

export type ViolationKind = 'operation' | 'status' | 'content-type' | 'header' | 'parameter' | 'body';

export interface Violation {
  kind: ViolationKind;
  message: string;
  /** JSON pointer into the body (or the header / parameter name) the violation is about. */
  pointer?: string;
  /** `assumed` when only a choice of ours is violated (the suite reports these as warn). */
  level: RequirementLevel;
  /** Catalogue IDs of the requirements the violated part of the contract encodes. */
  requirements: string[];
}

type Node = Record<string, unknown>;

const isNode = (value: unknown): value is Node => typeof value === 'object' && value !== null;

export const isAssumed = (node: unknown): boolean => isNode(node) && node['x-requirement-level'] === 'assumed';

export function requirementsOf(node: unknown): string[] {
  const ids = isNode(node) ? node['x-requirements'] : undefined;
  return Array.isArray(ids) ? ids.filter((id): id is string => typeof id === 'string') : [];
}

const includes = (list: unknown, value: unknown): boolean => Array.isArray(list) && list.includes(value);

function decodeSegment(segment: string): string {
  let decoded = segment;
  try {
    decoded = decodeURIComponent(segment);
  } catch {
    // not URI-encoded
  }
  return decoded.replace(/~1/g, '/').replace(/~0/g, '~');
}

/**
 * Level and requirement IDs of one schema error, found by walking its schemaPath through the
 * schema. The requirements are those of the deepest node on the path that names any (plus, for a
 * missing key, the missing property's own), after those of the node that made it assumed.
 */
export function classifySchemaError(error: ErrorObject, root: unknown): { level: RequirementLevel; requirements: string[] } {
  const segments = error.schemaPath
    .replace(/^#\/?/, '')
    .split('/')
    .filter((s) => s !== '')
    .map(decodeSegment);
  const keyword = segments.pop();
  let node: unknown = root;
  let assumed = isAssumed(node);
  let requirements = requirementsOf(node);
  // The requirements of the node that made the violation assumed: a documented schema reused under an assumed one
  // (the 400/409 ErrorBody inside the 401 body) must not lend its documented ID to an assumed violation.
  let assumedBy = assumed ? requirements : [];
  for (const segment of segments) {
    node = isNode(node) ? node[segment] : undefined;
    if (node === undefined) break;
    const own = requirementsOf(node);
    if (isAssumed(node) && !assumed) {
      assumed = true;
      assumedBy = own;
    }
    if (own.length > 0) requirements = own;
  }
  if (isNode(node)) {
    if (includes(node['x-assumed-keywords'], keyword)) assumed = true;
    const missing = error.params['missingProperty'];
    if (keyword === 'required') {
      if (includes(node['x-assumed-required'], missing)) assumed = true;
      const property = isNode(node['properties']) ? node['properties'][String(missing)] : undefined;
      requirements = [...requirements, ...requirementsOf(property)];
    }
  }
  return { level: assumed ? 'assumed' : 'documented', requirements: [...new Set([...assumedBy, ...requirements])] };
}

function describe(error: ErrorObject): string {
  const p = error.params as Record<string, unknown>;
  switch (error.keyword) {
    case 'additionalProperties':
      return `${error.message ?? ''}: '${String(p['additionalProperty'])}'`;
    case 'unevaluatedProperties':
      return `${error.message ?? ''}: '${String(p['unevaluatedProperty'])}'`;
    case 'const':
      return `${error.message ?? ''}: ${JSON.stringify(p['allowedValue'])}`;
    case 'enum':
      return `${error.message ?? ''}: ${JSON.stringify(p['allowedValues'])}`;
    default:
      return error.message ?? error.keyword;
  }
}

function pointerOf(error: ErrorObject): string {
  const p = error.params as Record<string, unknown>;
  if (error.keyword === 'required') return `${error.instancePath}/${String(p['missingProperty'])}`;
  if (error.keyword === 'additionalProperties') return `${error.instancePath}/${String(p['additionalProperty'])}`;
  if (error.keyword === 'unevaluatedProperties') return `${error.instancePath}/${String(p['unevaluatedProperty'])}`;
  return error.instancePath;
}

export interface SchemaErrorContext {
  kind: ViolationKind;
  /** Prefix of each message, e.g. `response body` or `header X-RateLimit-Limit`. */
  subject: string;
  /** Forces every violation to `assumed` (a wholly assumed document or element). */
  assumed?: boolean;
  /** Requirement IDs that apply to every violation (e.g. the header's). */
  requirements?: string[];
}

/**
 * A failed anyOf/oneOf is only a choice of ours when one of its branches failed on assumed keywords alone: the value
 * meets what the spec states of that branch (a rate with 8 decimals is a decimal string; six decimals is our reading
 * of the samples). Then the violation is assumed, under that branch's requirements. Null when no branch is such.
 */
function compositeLevel(
  error: ErrorObject,
  branches: readonly ErrorObject[],
  root: unknown,
): { level: RequirementLevel; requirements: string[] } | null {
  if (branches.length === 0) return null;
  const byBranch = new Map<string, ErrorObject[]>();
  for (const branch of branches) {
    const index = branch.schemaPath.slice(error.schemaPath.length + 1).split('/')[0]!;
    byBranch.set(index, [...(byBranch.get(index) ?? []), branch]);
  }
  for (const errors of byBranch.values()) {
    const classified = errors.map((e) => classifySchemaError(e, root));
    if (classified.every((c) => c.level === 'assumed'))
      return { level: 'assumed', requirements: [...new Set(classified.flatMap((c) => c.requirements))] };
  }
  return null;
}

/**
 * Turns ajv errors into violations. Branch errors of a failed anyOf/oneOf are folded into that
 * error's message, and `if` errors are dropped (their `then`/`else` errors carry the detail).
 */
export function schemaErrorsToViolations(errors: readonly ErrorObject[], root: unknown, context: SchemaErrorContext): Violation[] {
  const composites = errors.filter((e) => e.keyword === 'anyOf' || e.keyword === 'oneOf');
  const branchesOf = new Map<ErrorObject, ErrorObject[]>(composites.map((c) => [c, []]));
  const standalone: ErrorObject[] = [];
  for (const error of errors) {
    if (error.keyword === 'if') continue;
    const owner = composites.find((c) => c !== error && error.schemaPath.startsWith(`${c.schemaPath}/`));
    if (owner) branchesOf.get(owner)?.push(error);
    else standalone.push(error);
  }
  return standalone.map((error) => {
    const branches = branchesOf.get(error) ?? [];
    const { level, requirements } = compositeLevel(error, branches, root) ?? classifySchemaError(error, root);
    const detail =
      branches.length > 0 ? ` (${[...new Set(branches.map((b) => `${b.instancePath || '/'} ${describe(b)}`))].join('; ')})` : '';
    const pointer = pointerOf(error);
    return {
      kind: context.kind,
      message: `${context.subject}${pointer ? ` at ${pointer}` : ''}: ${describe(error)}${detail}`,
      pointer,
      level: context.assumed ? 'assumed' : level,
      requirements: [...new Set([...(context.requirements ?? []), ...requirements])],
    };
  });
}

/** A readable multi-line summary, for assertion messages and reports. */
export function formatViolations(violations: readonly Violation[]): string {
  return violations
    .map((v) => `[${v.level}] ${v.kind}: ${v.message}${v.requirements.length > 0 ? ` {${v.requirements.join(', ')}}` : ''}`)
    .join('\n');
}
