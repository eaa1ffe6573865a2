// Finds every example in a dereferenced OpenAPI document together with the schema it must satisfy:
// media types, parameters and headers (`example`, `examples.*.value`) and schemas (`examples`).

export interface ExampleCase {
  where: string;
  schema: object;
  value: unknown;
}

type Node = Record<string, unknown>;
const isNode = (value: unknown): value is Node => typeof value === 'object' && value !== null;

/** Walks a dereferenced document and collects (schema, example) pairs wherever OpenAPI allows them. */
export function collectExamples(document: unknown): ExampleCase[] {
  const cases: ExampleCase[] = [];
  const seen = new Set<object>();
  const visit = (node: unknown, where: string): void => {
    if (!isNode(node) || seen.has(node)) return;
    seen.add(node);
    const schema = node['schema'];
    // Media type, parameter or header object: `example` and/or an `examples` map of Example Objects.
    if (isNode(schema)) {
      if ('example' in node) cases.push({ where: `${where}/example`, schema, value: node['example'] });
      const examples = node['examples'];
      if (isNode(examples) && !Array.isArray(examples)) {
        for (const [name, example] of Object.entries(examples)) {
          if (isNode(example) && 'value' in example) cases.push({ where: `${where}/examples/${name}`, schema, value: example['value'] });
        }
      }
    }
    // Schema object: JSON Schema `examples` array (and the older `example`).
    if (Array.isArray(node['examples']) && !isNode(node['schema'])) {
      node['examples'].forEach((value, i) => cases.push({ where: `${where}/examples/${i}`, schema: node, value }));
    }
    if ('example' in node && !isNode(node['schema']) && ('type' in node || 'properties' in node)) {
      cases.push({ where: `${where}/example`, schema: node, value: node['example'] });
    }
    for (const [key, value] of Object.entries(node)) {
      // Example values are data, not document structure.
      if (key === 'example' || (key === 'value' && where.includes('/examples/'))) continue;
      visit(value, `${where}/${key}`);
    }
  };
  visit(document, '#');
  return cases;
}
