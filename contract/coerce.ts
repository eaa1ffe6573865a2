// Header and query values arrive as strings; their schemas say integer, boolean, ... Convert a
// value to the schema's type when it unambiguously reads as one, so the schema can judge it.

function typesOf(schema: unknown): Set<string> {
  const types = new Set<string>();
  if (typeof schema !== 'object' || schema === null) return types;
  const type = (schema as { type?: unknown }).type;
  if (typeof type === 'string') types.add(type);
  if (Array.isArray(type)) for (const t of type) if (typeof t === 'string') types.add(t);
  return types;
}

export function coerceToSchema(value: string, schema: unknown): unknown {
  const types = typesOf(schema);
  if (types.has('string')) return value;
  if (types.has('integer') && /^-?\d+$/.test(value)) return Number(value);
  if (types.has('number') && /^-?\d+(\.\d+)?([eE][-+]?\d+)?$/.test(value)) return Number(value);
  if (types.has('boolean') && (value === 'true' || value === 'false')) return value === 'true';
  if (types.has('null') && value === 'null') return null;
  return value;
}
