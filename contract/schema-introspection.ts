// Reads facts back out of dereferenced schemas: the JSON types a schema admits and the keyword
// values it carries, looking through anyOf/oneOf (union) and allOf (all must hold).

export type Schema = Record<string, unknown>;

const isSchema = (value: unknown): value is Schema => typeof value === 'object' && value !== null && !Array.isArray(value);

// `integer` is reported as `number`: the specification speaks of numbers.
const JSON_TYPES = ['string', 'number', 'boolean', 'array', 'object', 'null'] as const;

const normalise = (type: unknown): string => (type === 'integer' ? 'number' : String(type));

function typeOfValue(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  return typeof value;
}

const intersect = (a: Set<string>, b: Set<string>): Set<string> => new Set([...a].filter((t) => b.has(t)));

/** The JSON types a value valid against the schema can have. */
export function admittedTypes(schema: unknown): Set<string> {
  if (!isSchema(schema)) return new Set(JSON_TYPES);
  let types: Set<string> = new Set(JSON_TYPES);
  const type = schema['type'];
  if (typeof type === 'string' || Array.isArray(type)) types = new Set(([] as unknown[]).concat(type).map(normalise));
  if ('const' in schema) types = intersect(types, new Set([typeOfValue(schema['const'])]));
  if (Array.isArray(schema['enum'])) types = intersect(types, new Set((schema['enum'] as unknown[]).map(typeOfValue)));
  for (const key of ['anyOf', 'oneOf'] as const) {
    const branches = schema[key];
    if (!Array.isArray(branches)) continue;
    const union = new Set<string>();
    for (const branch of branches) for (const t of admittedTypes(branch)) union.add(t);
    types = intersect(types, union);
  }
  if (Array.isArray(schema['allOf'])) for (const part of schema['allOf']) types = intersect(types, admittedTypes(part));
  return types;
}

/** The values of `keyword` on the schema and every schema it composes (allOf/anyOf/oneOf). */
export function keywordValues(schema: unknown, keyword: string): unknown[] {
  if (!isSchema(schema)) return [];
  const values: unknown[] = keyword in schema ? [schema[keyword]] : [];
  for (const key of ['allOf', 'anyOf', 'oneOf']) {
    const parts = schema[key];
    if (Array.isArray(parts)) for (const part of parts) values.push(...keywordValues(part, keyword));
  }
  return values;
}

/** The first value of `keyword` found on the schema or its composed schemas. */
export function keywordValue(schema: unknown, keyword: string): unknown {
  return keywordValues(schema, keyword)[0];
}

/** Property schemas of an object schema, including those contributed through allOf. */
export function propertiesOf(schema: unknown): Record<string, Schema> {
  const merged: Record<string, Schema> = {};
  for (const properties of keywordValues(schema, 'properties')) {
    if (isSchema(properties)) for (const [name, value] of Object.entries(properties)) if (isSchema(value)) merged[name] ??= value;
  }
  return merged;
}

/** Required keys of an object schema, including those required through allOf. */
export function requiredOf(schema: unknown): Set<string> {
  const required = new Set<string>();
  if (!isSchema(schema)) return required;
  const own = schema['required'];
  if (Array.isArray(own)) for (const key of own) required.add(String(key));
  const parts = schema['allOf'];
  if (Array.isArray(parts)) for (const part of parts) for (const key of requiredOf(part)) required.add(key);
  return required;
}
