// Collects validation problems so that every invalid field yields exactly one errors[] entry.
import { invalidFields, type FieldProblem } from '../refusals/refusals.ts';

export type Path = readonly (string | number)[];

export class Problems {
  private readonly byPath = new Map<string, FieldProblem>();

  /** Record a problem at `path` unless that field already has one (first problem wins). */
  add(path: Path, message: string): void {
    const segments = path.map(String);
    const key = JSON.stringify(segments);
    if (!this.byPath.has(key)) this.byPath.set(key, { path: segments, message });
  }

  has(path: Path): boolean {
    return this.byPath.has(JSON.stringify(path.map(String)));
  }

  /** True when the field at `path`, or anything below it, has a problem. */
  hasUnder(path: Path): boolean {
    const prefix = path.map(String);
    return [...this.byPath.values()].some((e) => prefix.every((p, i) => e.path[i] === p));
  }

  get size(): number {
    return this.byPath.size;
  }

  list(): FieldProblem[] {
    return [...this.byPath.values()];
  }

  /** Throw the domain's Invalid refusal (one problem per field) when anything was recorded. */
  throwIfAny(): void {
    if (this.byPath.size > 0) throw invalidFields(this.list());
  }
}

export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** `body` as an object, or the Invalid refusal (one problem at the root) when it is anything else. */
export function objectBody(body: unknown, message = 'Request body must be a JSON object'): Record<string, unknown> {
  if (!isPlainObject(body)) throw invalidFields([{ path: [], message }]);
  return body;
}

/** Report every key of `body` outside `allowed` as an unknown field. */
export function rejectUnknownFields(body: Record<string, unknown>, allowed: readonly string[], problems: Problems, base: Path = []): void {
  for (const key of Object.keys(body)) {
    if (!allowed.includes(key)) problems.add([...base, key], `Unknown field "${key}"`);
  }
}

/** Length in characters (code points), as JSON Schema's maxLength counts them. */
export function charLength(value: string): number {
  let n = 0;
  for (const _ of value) n += 1;
  return n;
}
