// Generates TypeScript types from the two contract documents with openapi-typescript.
// `node scripts/generate-types.mjs` writes contract/generated/*.ts;
// `node scripts/generate-types.mjs --check` regenerates in memory and exits 1 on any difference
// (CI runs it so the generated files never drift from the YAML).
import { readFile, writeFile, mkdir } from 'node:fs/promises';
import { dirname, relative } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import openapiTS, { astToString } from 'openapi-typescript';

const root = fileURLToPath(new URL('..', import.meta.url));

const targets = [
  { source: 'openapi.yaml', output: 'contract/generated/openapi.ts' },
  { source: 'conformance/control-api.yaml', output: 'contract/generated/control-api.ts' },
];

export async function render(source) {
  // defaultNonNullable: false — a property with a `default:` that is not `required` stays optional
  // (openapi-typescript 7 makes it required by default), so the minimal create body
  // {"amount":"100","currency":"USD"} is a valid PaymentCreateRequest.
  const ast = await openapiTS(pathToFileURL(`${root}${source}`), { silent: true, defaultNonNullable: false });
  const header = `// File generated from ${source} by scripts/generate-types.mjs. Do not edit.\n`;
  return header + astToString(ast);
}

async function main() {
  const check = process.argv.includes('--check');
  const stale = [];
  for (const { source, output } of targets) {
    const expected = await render(source);
    const path = `${root}${output}`;
    if (check) {
      const actual = await readFile(path, 'utf8').catch(() => null);
      if (actual !== expected) stale.push(output);
    } else {
      await mkdir(dirname(path), { recursive: true });
      await writeFile(path, expected);
      console.log(`wrote ${relative(root, path)}`);
    }
  }
  if (stale.length > 0) {
    console.error(`Generated types are out of date: ${stale.join(', ')}.\nRun \`npm run generate:types\` and commit the result.`);
    process.exit(1);
  }
  if (check) console.log('Generated types are up to date.');
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  await main();
}
