// Matches concrete request paths (`/v1/payments/abc?x=1`) to OpenAPI path templates
// (`/v1/payments/{id}`), preferring literal segments over parameters.

export interface PathMatch {
  template: string;
  params: Record<string, string>;
}

interface CompiledTemplate {
  template: string;
  parts: ({ literal: string } | { param: string })[];
  paramCount: number;
}

function split(path: string): string[] {
  return path.split('/').slice(1);
}

/** The path component of a URL or path: origin, query string and fragment removed. */
export function pathnameOf(urlOrPath: string): string {
  let path = urlOrPath;
  const scheme = /^[a-z][a-z0-9+.-]*:\/\/[^/]*/i.exec(path);
  if (scheme) path = path.slice(scheme[0].length) || '/';
  const cut = path.search(/[?#]/);
  return cut === -1 ? path : path.slice(0, cut);
}

export class PathMatcher {
  readonly #templates: CompiledTemplate[];

  constructor(templates: Iterable<string>) {
    this.#templates = [...templates].map((template) => {
      const parts = split(template).map((segment) => {
        const param = /^\{([^}]+)\}$/.exec(segment);
        return param ? { param: param[1] ?? '' } : { literal: segment };
      });
      return { template, parts, paramCount: parts.filter((p) => 'param' in p).length };
    });
    // Fewer parameters first: `/v1/webhooks/test` wins over a hypothetical `/v1/webhooks/{id}`.
    this.#templates.sort((a, b) => a.paramCount - b.paramCount);
  }

  /** All templates matching the path, most specific first. */
  matchAll(urlOrPath: string): PathMatch[] {
    const segments = split(pathnameOf(urlOrPath));
    const matches: PathMatch[] = [];
    for (const { template, parts } of this.#templates) {
      if (parts.length !== segments.length) continue;
      const params: Record<string, string> = {};
      const ok = parts.every((part, i) => {
        const segment = segments[i] ?? '';
        if ('literal' in part) return part.literal === segment;
        if (segment === '') return false;
        try {
          params[part.param] = decodeURIComponent(segment);
        } catch {
          params[part.param] = segment;
        }
        return true;
      });
      if (ok) matches.push({ template, params });
    }
    return matches;
  }
}
