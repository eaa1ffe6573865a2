// The contract as the simulator serves it: openapi.yaml as written, the same document as JSON, and
// the reference page built ahead of time into dist/docs.html. Read once, on first request; the YAML parser too is
// loaded on the first request for the JSON (loaded with the server, it cost every start a hundred modules).
import { existsSync, readFileSync, statSync } from 'node:fs';
import { fromPackageRoot } from '@stablepay/contract/package-root';

let yamlText: string | undefined;
let jsonText: string | undefined;

export function openapiYaml(): string {
  yamlText ??= readFileSync(fromPackageRoot('openapi.yaml'), 'utf8');
  return yamlText;
}

export async function openapiJson(): Promise<string> {
  if (jsonText === undefined) {
    const { parse } = await import('yaml');
    jsonText = JSON.stringify(parse(openapiYaml()), null, 2);
  }
  return jsonText;
}

let docs: { mtimeMs: number; html: string } | undefined;

/**
 * The rendered reference (about 2.6 MB: it carries its own script so it works offline), or undefined when the build has
 * not made it (no @redocly/cli). Kept in memory until the build replaces the file.
 */
export function docsHtml(): string | undefined {
  const path = fromPackageRoot('dist', 'docs.html');
  if (!existsSync(path)) return undefined;
  const { mtimeMs } = statSync(path);
  if (docs?.mtimeMs !== mtimeMs) docs = { mtimeMs, html: readFileSync(path, 'utf8') };
  return docs.html;
}
