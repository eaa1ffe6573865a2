// Builds what the package runs, ahead of time, so nothing is compiled when a command starts:
//   dist/stablepay.js (+ dist/chunks/): the `stablepay` command. esbuild bundles our TypeScript into ES modules and
//     leaves npm packages as imports, except those `stablepay start` loads (viem with its own dependencies, undici,
//     @viem/anvil with execa, hono, @hono/node-server, commander): loading their hundreds of small
//     modules one by one took longer than the rest of start-up (Node resolves each import through its package
//     scope), and bundled they load in half the time. Each
//     subcommand's library is a separate chunk loaded only when that subcommand runs, so `stablepay --help` loads
//     little more than commander.
//   dist/pay-page.js: the hosted payment page's browser script (viem included), minified.
//   merchant/webhooks/dist/, merchant/client/dist/: the two merchant packages (@stablepay/webhooks, @stablepay/client),
//     each one ES module and one declaration file; the contract's types they re-export are inlined into that file by
//     dts-bundle-generator, so neither package depends on @stablepay/contract once packed.
//   dist/webhooks.js, dist/client.js (+ dist/types/exports/): `stablepay/webhooks` and `stablepay/client`, which
//     re-export the merchant packages for projects that installed the whole toolkit (declarations by tsc,
//     tsconfig.exports.json).
//   dist/docs.html: the API reference rendered from openapi.yaml, self-contained so it works offline
//     (scripts/build-docs.mjs), served by the simulator at /docs. Where redocly is not installed the build says so.
// `npm install` / `npm ci` run this through `prepare`; the test suite runs it once before any test (vitest
// globalSetup), so tests that spawn the CLI always run the current code. `node scripts/build.mjs` builds by hand.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { build } from 'esbuild';
import { buildDocs } from './build-docs.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));

/** Packages compiled into the bundle; every other bare import stays an import of node_modules. */
const BUNDLED_PACKAGES =
  /^(@stablepay\/(contract|chains|simulator|conformance)|hono|@hono\/node-server|commander|viem|ox|abitype|undici|@noble\/[^/]+|@scure\/[^/]+|@viem\/anvil|execa|get-port|npm-run-path|path-key|human-signals|is-stream|merge-stream|onetime|mimic-fn|signal-exit|strip-final-newline|get-stream|cross-spawn|shebang-command|shebang-regex|which|isexe)(\/|$)/;

const externalPackagesButBundled = {
  name: 'external-packages-but-bundled',
  setup(build) {
    build.onResolve({ filter: /^[^./]/ }, (args) => (BUNDLED_PACKAGES.test(args.path) ? undefined : { path: args.path, external: true }));
  },
};

export const distDir = join(root, 'dist');

// Every file is written beside its target and renamed over it, and nothing is deleted first: a build may run while
// the CLI runs from dist/ (the test suite spawns it; `npx` in this directory runs `prepare`), and a process must
// never see a missing or half-written file. Chunks are named by content hash, so an unchanged chunk is replaced by
// the same bytes; stale chunks of older builds are left behind (small, never imported by the current entry).
function writeAtomically(outputFiles) {
  for (const file of outputFiles) {
    mkdirSync(dirname(file.path), { recursive: true });
    const temporary = `${file.path}.${process.pid}.tmp`;
    writeFileSync(temporary, file.contents);
    renameSync(temporary, file.path);
  }
}

export async function buildAll() {
  const common = { absWorkingDir: root, bundle: true, format: 'esm', logLevel: 'warning', legalComments: 'none', write: false };
  const results = await Promise.all([
    build({
      ...common,
      entryPoints: { stablepay: 'cli/main.ts' },
      outdir: distDir,
      platform: 'node',
      target: 'node20',
      plugins: [externalPackagesButBundled],
      // We use @viem/anvil's createAnvil only. Its index also re-exports its proxy, whose CommonJS http-proxy (with
      // follow-redirects) the bundle would still evaluate at every start; the alias bundles createAnvil's own module.
      alias: { '@viem/anvil': './node_modules/@viem/anvil/dist/esm/anvil/createAnvil.js' },
      // undici is CommonJS: its require() calls of Node's modules need a real require inside the ES module bundle.
      banner: {
        js: "import { createRequire as __stablepayCreateRequire } from 'node:module'; const require = __stablepayCreateRequire(import.meta.url);",
      },
      splitting: true,
      chunkNames: 'chunks/[name]-[hash]',
    }),
    build({
      ...common,
      entryPoints: { 'pay-page': 'simulator/edge/pay-page/client/main.ts' },
      outdir: distDir,
      platform: 'browser',
      target: 'es2022',
      minify: true,
    }),
    build({
      ...common,
      entryPoints: { webhooks: 'exports/webhooks.ts', client: 'exports/client.ts' },
      outdir: distDir,
      platform: 'node',
      target: 'node20',
      packages: 'external',
    }),
    ...MERCHANT_PACKAGES.map((dir) =>
      build({
        ...common,
        entryPoints: { index: `${dir}/index.ts` },
        outdir: join(root, dir, 'dist'),
        platform: 'node',
        target: 'node20',
        packages: 'external',
      }),
    ),
  ]);
  for (const result of results) writeAtomically(result.outputFiles);
  // The merchant packages' declarations first: the root's re-exports are declared in terms of them.
  for (const dir of MERCHANT_PACKAGES) buildMerchantDeclarations(dir);
  buildDeclarations();
  buildDocs(root, distDir);
}

/** The packages a merchant installs on their own: no Chromium, Anvil, testcontainers or suite in them. */
export const MERCHANT_PACKAGES = ['merchant/webhooks', 'merchant/client'];

/** One declaration file per merchant package, the contract's types inlined (they come from a private workspace). */
export function buildMerchantDeclarations(dir) {
  const cli = join(root, 'node_modules', 'dts-bundle-generator', 'dist', 'bin', 'dts-bundle-generator.js');
  if (!existsSync(cli)) {
    console.warn(`build: dts-bundle-generator is not installed, so ${dir}/dist/index.d.ts is not built`);
    return false;
  }
  const target = join(root, dir, 'dist', 'index.d.ts');
  // About ten seconds each, and every test run builds: skipped while no input is newer than the file.
  const inputs = [
    ...readdirSync(join(root, dir))
      .filter((f) => f.endsWith('.ts'))
      .map((f) => join(root, dir, f)),
    join(root, 'contract', 'types.ts'),
    join(root, 'contract', 'generated', 'openapi.ts'),
  ];
  if (existsSync(target) && inputs.every((input) => statSync(input).mtimeMs <= statSync(target).mtimeMs)) return true;
  const out = `${target}.${process.pid}.tmp`;
  // tsconfig.merchant.json keeps symlinks, so the contract (a workspace, linked into node_modules) counts as the
  // external package it is and its types are inlined; --export-referenced-types false keeps the surface to what
  // the package's index exports.
  const args = [
    cli,
    '--no-check',
    '--no-banner',
    '--export-referenced-types',
    'false',
    '--external-inlines',
    '@stablepay/contract',
    '--project',
    'tsconfig.merchant.json',
    '-o',
    out,
    `${dir}/index.ts`,
  ];
  const run = spawnSync(process.execPath, args, { cwd: root, encoding: 'utf8' });
  if (run.status !== 0) throw new Error(`dts-bundle-generator ${dir} failed (${run.status}):\n${run.stdout}${run.stderr}`);
  renameSync(out, target);
  return true;
}

/** Type declarations of the merchant exports, for `import ... from 'stablepay/client'` in TypeScript. */
export function buildDeclarations() {
  const tsc = join(root, 'node_modules', 'typescript', 'bin', 'tsc');
  if (!existsSync(tsc)) {
    console.warn('build: typescript is not installed, so dist/types/ is not built');
    return false;
  }
  const run = spawnSync(process.execPath, [tsc, '-p', 'tsconfig.exports.json'], { cwd: root, encoding: 'utf8' });
  if (run.status !== 0) throw new Error(`tsc -p tsconfig.exports.json failed (${run.status}):\n${run.stdout}${run.stderr}`);
  return true;
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  await buildAll();
}
