// Request bodies the spec does not show are templates: JSON with placeholders the suite fills in. A string that is
// exactly `{name}` takes the value itself (a number, an array, null); a key or array element whose placeholder has no
// value is left out (so one update template serves partial updates); `{name}` inside a longer string is replaced as
// text. The simulator's bodies are the defaults; an implementation profile may declare its own (docs/implementers.md).

export type BodyTemplate = Record<string, unknown>;

const WHOLE = /^\{([A-Za-z][A-Za-z0-9]*)\}$/;
const INLINE = /\{([A-Za-z][A-Za-z0-9]*)\}/g;
const OMIT = Symbol('omit');

function fill(node: unknown, values: Record<string, unknown>): unknown {
  if (typeof node === 'string') {
    const whole = WHOLE.exec(node);
    if (whole) return values[whole[1]!] === undefined ? OMIT : values[whole[1]!];
    let missing = false;
    const text = node.replace(INLINE, (_, name: string) => {
      if (values[name] === undefined) missing = true;
      return String(values[name]);
    });
    return missing ? OMIT : text;
  }
  if (Array.isArray(node)) return node.map((item) => fill(item, values)).filter((item) => item !== OMIT);
  if (node !== null && typeof node === 'object') {
    const out: Record<string, unknown> = {};
    for (const [key, value] of Object.entries(node)) {
      const filled = fill(value, values);
      if (filled !== OMIT) out[key] = filled;
    }
    return out;
  }
  return node;
}

export function fillTemplate(template: BodyTemplate, values: Record<string, unknown>): Record<string, unknown> {
  return fill(template, values) as Record<string, unknown>;
}

/** The placeholder names a template uses (the profile check tells an implementer which ones exist). */
export function placeholdersOf(template: unknown): string[] {
  const names = new Set<string>();
  const visit = (node: unknown) => {
    if (typeof node === 'string') for (const match of node.matchAll(INLINE)) names.add(match[1]!);
    else if (Array.isArray(node)) node.forEach(visit);
    else if (node !== null && typeof node === 'object') Object.values(node).forEach(visit);
  };
  visit(template);
  return [...names].sort();
}
