// Finding a field by what it holds rather than by its name: records the spec does not show are searched by value
// (a pk_ key, a UUID, a timestamp near an expected instant, a list as sent). Field names are dotted paths, one level of
// nesting deep (`apiKey.id`), since a response may wrap its record.

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const DATE_LIKE = /^\d{4}-\d{2}-\d{2}T/;

/** Every leaf of the object, one level of nesting deep, by dotted path. */
export function leaves(body: unknown): [string, unknown][] {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) return [];
  const out: [string, unknown][] = [];
  for (const [key, value] of Object.entries(body as Record<string, unknown>)) {
    out.push([key, value]);
    if (value !== null && typeof value === 'object' && !Array.isArray(value)) {
      for (const [inner, innerValue] of Object.entries(value as Record<string, unknown>)) out.push([`${key}.${inner}`, innerValue]);
    }
  }
  return out;
}

/** The value at a dotted path (`undefined` when absent). */
export function fieldValue(body: unknown, path: string): unknown {
  let node: unknown = body;
  for (const segment of path.split('.')) {
    if (node === null || typeof node !== 'object' || Array.isArray(node)) return undefined;
    node = (node as Record<string, unknown>)[segment];
  }
  return node;
}

export function hasField(body: unknown, path: string): boolean {
  const parent = path.includes('.') ? fieldValue(body, path.slice(0, path.lastIndexOf('.'))) : body;
  return parent !== null && typeof parent === 'object' && !Array.isArray(parent) && Object.hasOwn(parent, path.split('.').at(-1)!);
}

export const isUuid = (value: unknown): value is string => typeof value === 'string' && UUID.test(value);

/** The paths whose value satisfies `test`. */
export function fieldsWhere(body: unknown, test: (value: unknown, path: string) => boolean): string[] {
  return leaves(body)
    .filter(([path, value]) => test(value, path))
    .map(([path]) => path);
}

/** The candidate if it satisfies `test`, else the only path that does; null when none or several do. */
export function findField(body: unknown, candidate: string, test: (value: unknown) => boolean): string | null {
  if (test(fieldValue(body, candidate))) return candidate;
  const matching = fieldsWhere(body, (value) => test(value));
  return matching.length === 1 ? matching[0]! : null;
}

/** A date-time string within `toleranceMs` of `expected`. */
export function isInstantNear(value: unknown, expected: number, toleranceMs: number): boolean {
  return typeof value === 'string' && DATE_LIKE.test(value) && Math.abs(Date.parse(value) - expected) <= toleranceMs;
}

/** Same elements, in any order. */
export function sameList(value: unknown, expected: readonly unknown[]): boolean {
  if (!Array.isArray(value) || value.length !== expected.length) return false;
  const key = (items: readonly unknown[]) =>
    items
      .map((item) => JSON.stringify(item))
      .sort()
      .join('\n');
  return key(value) === key(expected);
}
