#!/usr/bin/env node
// The boundaries of the house, checked on the import graph dependency-cruiser reads from the sources:
//   - packages: who may import whom (contract <- chains <- simulator; the suite imports the simulator only from its
//     self-test; the merchant packages nothing heavy), and across packages only by package name;
//   - the simulator's layers: core <- edge <- faults <- runtime, and test-support only from tests;
//   - no circle in any package, of files nor of folders (the entries of every folder import each other without a loop);
//   - every folder README's "**Imports**" sentence: the folders it names (in backticks) are exactly the folders of
//     the package that folder's code imports, so a README cannot drift from the code.
// Exit 1 with one line per finding. Run: npm run lint:boundaries (also in .ci/run). `--print` prints, per folder that
// has a README, what its code imports, to write the README's sentence from.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { cruise } from 'dependency-cruiser';
import extractTSConfig from 'dependency-cruiser/config-utl/extract-ts-config';

const root = fileURLToPath(new URL('..', import.meta.url));
process.chdir(root);
const print = process.argv.includes('--print');

/** Workspace folder -> the packages (by folder) its code may import. */
const PACKAGES = {
  contract: [],
  chains: ['contract'],
  simulator: ['contract', 'chains'],
  conformance: ['contract', 'chains'],
  'merchant/webhooks': ['contract'],
  'merchant/client': ['contract'],
};
/** What a package's tests (and test support) may import besides: the simulator's tests verify as a merchant does. */
const TESTS_MAY_IMPORT = { simulator: ['merchant/webhooks'] };
/** Top-level data every package may read. */
const SHARED_DATA = /^fixtures\//;
/** The suite's self-test: the only part of it that may start or name a simulator. */
const SUITE_SELF_TEST = /^conformance\/(mutation\/|test-support\/)|\.test\.ts$/;
/** The simulator's layers, lowest first: a file may import its own layer and the ones below. */
const LAYERS = ['core', 'edge', 'faults', 'runtime'];
/** What the merchant packages may bring into a merchant's install. */
const MERCHANT_NPM = /^(node:|openapi-fetch$)/;

const isTest = (path) => /\.test\.ts$/.test(path) || /(^|\/)test-support\//.test(path);
const packageOf = (path) => Object.keys(PACKAGES).find((p) => path === p || path.startsWith(`${p}/`));
const layerOf = (path) => (path.startsWith('simulator/') ? path.split('/')[1] : undefined);

const tsConfig = extractTSConfig('tsconfig.json');
const { output } = await cruise(
  ['contract', 'chains', 'simulator', 'conformance', 'merchant', 'cli', 'bench', 'e2e', 'property-tests', 'exports', 'scripts'],
  {
    exclude: { path: '(^|/)(node_modules|dist)/' },
    doNotFollow: { path: 'node_modules' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['import', 'node', 'default'],
      extensions: ['.ts', '.tsx', '.js', '.mjs', '.json'],
    },
    validate: false,
  },
  {},
  { tsConfig },
);

const findings = [];
/** Every module's imports of files of this tree, with how they were written. */
const edges = [];
for (const module of output.modules) {
  if (module.source.startsWith('node_modules/') || module.coreModule) continue;
  for (const dependency of module.dependencies) {
    const target = dependency.resolved;
    const viaNpm = !dependency.module.startsWith('.');
    if (dependency.couldNotResolve) {
      // Types-only packages (@types/har-format) have no file to resolve to.
      if (!existsSync(join(root, 'node_modules', '@types', dependency.module.replace(/^@([^/]+)\//, '$1__'))))
        findings.push(`${module.source}: cannot resolve ${dependency.module}`);
      continue;
    }
    if (
      module.source.startsWith('merchant/') &&
      !isTest(module.source) &&
      target.startsWith('node_modules/') &&
      !MERCHANT_NPM.test(dependency.module)
    ) {
      findings.push(
        `${module.source}: a merchant package imports ${dependency.module}; it may bring only node's own modules and openapi-fetch`,
      );
    }
    if (target.startsWith('node_modules/') || dependency.coreModule) continue;
    edges.push({
      from: module.source,
      to: target,
      module: dependency.module,
      viaNpm,
      typeOnly: dependency.dependencyTypes.includes('type-only'),
    });
  }
}

// Packages.
for (const { from, to, module, viaNpm, typeOnly } of edges) {
  const fromPackage = packageOf(from);
  const toPackage = packageOf(to);
  if (fromPackage === undefined || fromPackage === toPackage || SHARED_DATA.test(to)) continue;
  if (!viaNpm) findings.push(`${from}: imports ${to} by a relative path; across packages, import by package name`);
  const allowed =
    toPackage !== undefined &&
    (PACKAGES[fromPackage].includes(toPackage) || (isTest(from) && (TESTS_MAY_IMPORT[fromPackage] ?? []).includes(toPackage)));
  const selfTest = fromPackage === 'conformance' && toPackage === 'simulator' && SUITE_SELF_TEST.test(from);
  const merchantTypes = fromPackage.startsWith('merchant/') && toPackage === 'contract' && typeOnly;
  if (toPackage === undefined) findings.push(`${from}: imports ${module} (${to}), outside every package`);
  else if (!allowed && !selfTest) findings.push(`${from}: the ${fromPackage} package may not import ${toPackage} (${module})`);
  else if (fromPackage.startsWith('merchant/') && !merchantTypes)
    findings.push(`${from}: a merchant package may import the contract's types only (${module})`);
}

// The simulator's layers, and test support.
for (const { from, to } of edges) {
  if (isTest(from)) continue;
  // The suite's self-test starts simulators through the suite's test support, as its tests do.
  if (/(^|\/)test-support\//.test(to) && !/^(bench|e2e)\/|^conformance\/mutation\//.test(from))
    findings.push(`${from}: product code imports test support (${to})`);
  const fromLayer = layerOf(from);
  const toLayer = layerOf(to);
  if (fromLayer === undefined || toLayer === undefined || !LAYERS.includes(fromLayer) || !LAYERS.includes(toLayer)) continue;
  if (LAYERS.indexOf(toLayer) > LAYERS.indexOf(fromLayer))
    findings.push(`${from}: the simulator's ${fromLayer} imports its ${toLayer} (${to}); a layer imports only itself and the layers below`);
}

/** Strongly connected components of a graph (Tarjan), the ones of more than one node. */
function circles(graph) {
  let index = 0;
  const stack = [];
  const state = new Map();
  const found = [];
  const visit = (node) => {
    state.set(node, { index, low: index, onStack: true });
    index++;
    stack.push(node);
    for (const next of graph.get(node) ?? []) {
      if (!state.has(next)) {
        visit(next);
        state.get(node).low = Math.min(state.get(node).low, state.get(next).low);
      } else if (state.get(next).onStack) state.get(node).low = Math.min(state.get(node).low, state.get(next).index);
    }
    if (state.get(node).low === state.get(node).index) {
      const component = [];
      let member;
      do {
        member = stack.pop();
        state.get(member).onStack = false;
        component.push(member);
      } while (member !== node);
      if (component.length > 1) found.push(component.sort());
    }
  };
  for (const node of graph.keys()) if (!state.has(node)) visit(node);
  return found;
}
const productEdges = edges.filter(
  ({ from, to }) => !isTest(from) && !isTest(to) && packageOf(from) !== undefined && packageOf(from) === packageOf(to),
);

// Circles of files, per package.
{
  const graph = new Map();
  for (const { from, to } of productEdges) {
    if (!graph.has(from)) graph.set(from, new Set());
    graph.get(from).add(to);
  }
  for (const component of circles(graph)) findings.push(`a circle: ${component.join(' <-> ')}`);
}

// Circles of folders: inside every folder of a package, its entries (sub-folders and files) import each other without
// a loop, so every folder can be drawn on floors with no import running back up.
{
  const byFolder = new Map();
  for (const { from, to } of productEdges) {
    const fromParts = from.split('/');
    const toParts = to.split('/');
    let shared = 0;
    while (shared < fromParts.length - 1 && shared < toParts.length - 1 && fromParts[shared] === toParts[shared]) shared++;
    const folder = fromParts.slice(0, shared).join('/');
    if (packageOf(folder === '' ? from : `${folder}/x`) === undefined) continue;
    const entryOf = (parts) => parts.slice(0, shared + 1).join('/');
    if (!byFolder.has(folder)) byFolder.set(folder, { graph: new Map(), witness: new Map() });
    const { graph, witness } = byFolder.get(folder);
    const a = entryOf(fromParts);
    const b = entryOf(toParts);
    if (!graph.has(a)) graph.set(a, new Set());
    graph.get(a).add(b);
    if (!witness.has(`${a} ${b}`)) witness.set(`${a} ${b}`, `${from} -> ${to}`);
  }
  for (const [folder, { graph, witness }] of byFolder) {
    for (const component of circles(graph)) {
      const ties = [];
      for (const a of component) for (const b of component) if (witness.has(`${a} ${b}`)) ties.push(witness.get(`${a} ${b}`));
      findings.push(`a loop between the entries of ${folder}/: ${component.join(', ')} (${ties.join('; ')})`);
    }
  }
}

// Folder READMEs: "**Imports** `a`, `b` ..." names exactly the folders of the package the folder's code imports.
function readmes(dir) {
  const found = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (entry.name === 'node_modules' || entry.name === 'dist') continue;
    const path = join(dir, entry.name);
    if (entry.isDirectory()) found.push(...readmes(path));
    else if (entry.name === 'README.md') found.push(path);
  }
  return found;
}
/** The folders a README's sentence may name: its package's own folders one level under a layer, or under the package. */
function unitOf(path, pkg) {
  const rest = path.slice(pkg.length + 1).split('/');
  if (pkg === 'simulator' && LAYERS.includes(rest[0]) && rest.length > 2) return `${rest[0]}/${rest[1]}`;
  if (pkg === 'simulator' && LAYERS.includes(rest[0])) return rest[0];
  return rest.length > 1 ? rest[0] : '.';
}
for (const readme of readmes(root).map((p) => p.slice(root.length))) {
  const folder = dirname(readme);
  const pkg = packageOf(folder);
  if (!pkg || folder === pkg) continue;
  const text = readFileSync(readme, 'utf8');
  const sentence = /\*\*Imports\*\*([\s\S]*?)(?:\*\*Imported by\*\*|\n\n|$)/.exec(text)?.[1];
  const own = unitOf(`${folder}/x.ts`, pkg);
  const imported = new Map();
  for (const { from, to } of edges) {
    if (isTest(from) || !from.startsWith(`${folder}/`) || to.startsWith(`${folder}/`) || packageOf(to) !== pkg) continue;
    const unit = unitOf(to, pkg);
    if (unit === own || unit === '.') continue;
    if (!imported.has(unit)) imported.set(unit, new Set());
    imported.get(unit).add(to);
  }
  if (print) console.log(`${folder}: ${[...imported.keys()].sort().join(', ') || '(nothing of its package)'}`);
  if (sentence === undefined) continue;
  const layer = own.split('/')[0];
  const named = new Set();
  for (const [, token] of sentence.matchAll(/`([^`]+)`/g)) {
    const name = token.replace(/\/$/, '');
    const candidates = [name, layer ? `${layer}/${name}` : name];
    const unit = candidates.find((c) => existsSync(join(root, pkg, c)) && !c.endsWith('.ts'));
    if (unit) named.add(unit);
  }
  for (const [unit, targets] of imported) {
    if (!named.has(unit) && !named.has(unit.split('/').pop()))
      findings.push(`${readme}: its code imports \`${unit}\` (${[...targets][0]}), which its **Imports** sentence does not name`);
  }
  for (const unit of named)
    if (!imported.has(unit)) findings.push(`${readme}: names \`${unit}\` under **Imports**, but no file of ${folder}/ imports it`);
}

if (findings.length > 0) {
  for (const finding of findings) console.error(`boundaries: ${finding}`);
  process.exit(1);
}
console.log(`boundaries: ${edges.length} imports between ${output.modules.length} modules keep every rule`);
