// The TypeScript snippets a merchant copies from the READMEs (the root one and the merchant packages') compile under
// `strict`, as written, in a project that knows nothing of our sources: it installs the merchant packages (linked to
// their built dist/) and Node's types, nothing else.
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fromPackageRoot, packageRoot } from '@stablepay/contract/package-root';

const run = promisify(execFile);

/** READMEs a merchant reads, and how many ```ts snippets each holds (so a lost fence cannot pass as "nothing to compile"). */
const READMES: Record<string, number> = { 'README.md': 1, 'merchant/webhooks/README.md': 1, 'merchant/client/README.md': 1 };

/** Each ```ts fenced block of a Markdown file, as written. */
function typescriptSnippets(markdown: string): string[] {
  return [...markdown.matchAll(/^```ts\n([\s\S]*?)^```$/gm)].map((match) => match[1]!);
}

let project: string;
const files: { readme: string; file: string }[] = [];

beforeAll(async () => {
  project = await mkdtemp(join(tmpdir(), 'stablepay-readme-'));
  const modules = join(project, 'node_modules');
  await mkdir(join(modules, '@stablepay'), { recursive: true });
  await mkdir(join(modules, '@types'), { recursive: true });
  await symlink(fromPackageRoot('merchant', 'webhooks'), join(modules, '@stablepay', 'webhooks'), 'dir');
  await symlink(fromPackageRoot('merchant', 'client'), join(modules, '@stablepay', 'client'), 'dir');
  await symlink(packageRoot, join(modules, 'stablepay'), 'dir');
  await symlink(fromPackageRoot('node_modules', 'openapi-fetch'), join(modules, 'openapi-fetch'), 'dir');
  await symlink(fromPackageRoot('node_modules', 'openapi-typescript-helpers'), join(modules, 'openapi-typescript-helpers'), 'dir').catch(
    () => undefined,
  );
  await symlink(fromPackageRoot('node_modules', '@types', 'node'), join(modules, '@types', 'node'), 'dir');
  await symlink(fromPackageRoot('node_modules', 'undici-types'), join(modules, 'undici-types'), 'dir');
  await writeFile(join(project, 'package.json'), JSON.stringify({ name: 'merchant-app', type: 'module', private: true }));
  for (const readme of Object.keys(READMES)) {
    const snippets = typescriptSnippets(readFileSync(fromPackageRoot(readme), 'utf8'));
    for (const [index, snippet] of snippets.entries()) {
      const file = `${readme.replace(/\W+/g, '-')}-${index + 1}.ts`;
      files.push({ readme, file });
      // Each snippet is a module of its own (`export {}` keeps a snippet without imports one).
      await writeFile(join(project, file), `${snippet}\nexport {};\n`);
    }
  }
  const compilerOptions = {
    target: 'ES2022',
    module: 'NodeNext',
    moduleResolution: 'NodeNext',
    strict: true,
    noEmit: true,
    skipLibCheck: false,
    types: ['node'],
  };
  await writeFile(join(project, 'tsconfig.json'), JSON.stringify({ compilerOptions, files: files.map((f) => f.file) }));
});

afterAll(async () => {
  if (project) await rm(project, { recursive: true, force: true });
});

describe('README snippets', () => {
  it('finds every snippet it expects', () => {
    for (const [readme, count] of Object.entries(READMES))
      expect(
        files.filter((f) => f.readme === readme),
        readme,
      ).toHaveLength(count);
  });

  it('compile under strict as a merchant copies them', async () => {
    const tsc = fromPackageRoot('node_modules', 'typescript', 'bin', 'tsc');
    const result = await run(process.execPath, [tsc, '-p', 'tsconfig.json'], { cwd: project }).then(
      () => ({ code: 0, out: '' }),
      (error: { code: number; stdout: string }) => ({ code: error.code, out: error.stdout }),
    );
    expect(result.out).toBe('');
    expect(result.code).toBe(0);
  });

  it('would catch a snippet that does not type-check (the header typed as the verifier once took it)', async () => {
    const broken = join(project, 'broken.ts');
    await writeFile(
      broken,
      "import { verifyWebhookSignature } from '@stablepay/webhooks';\nconst header: string | string[] | undefined = undefined;\nconst n: number = verifyWebhookSignature('{}', header, 's');\nexport {};\n",
    );
    const tsc = fromPackageRoot('node_modules', 'typescript', 'bin', 'tsc');
    const compilerArgs = [
      '--strict',
      '--noEmit',
      '--module',
      'NodeNext',
      '--moduleResolution',
      'NodeNext',
      '--target',
      'ES2022',
      '--types',
      'node',
      broken,
    ];
    const result = await run(process.execPath, [tsc, ...compilerArgs], { cwd: project }).then(
      () => ({ code: 0, out: '' }),
      (error: { code: number; stdout: string }) => ({ code: error.code, out: error.stdout }),
    );
    expect(result.code).not.toBe(0);
    expect(result.out).toMatch(/not assignable to type 'number'/);
  });
});
