#!/usr/bin/env node
// Builds the container image `stablepay:local` with no registry: a minimal root filesystem holding the node binary,
// the shared libraries `ldd` lists for it (the same ones libfaketime needs, so the suite can preload it), and the app
// with its production dependencies, then `docker import`. The image has no shell: wait on it over HTTP.
// People with a registry can build the same app from the Dockerfile instead.
// Usage: node scripts/build-image.mjs [--tag stablepay:local]
import { execFileSync, spawnSync } from 'node:child_process';
import { chmodSync, cpSync, existsSync, mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const tagIndex = process.argv.indexOf('--tag');
const tag = tagIndex > 0 ? process.argv[tagIndex + 1] : 'stablepay:local';
const FAKETIME_LIB = '/usr/lib/x86_64-linux-gnu/faketime/libfaketimeMT.so.1';
// Not needed to run the service: browser tests, screenshots, CI scripts.
const LEFT_OUT = [/^e2e\//, /^docs\//, /^\.ci\//, /\.test\.ts$/];

function sharedLibraries(binary) {
  const out = execFileSync('ldd', [binary], { encoding: 'utf8' });
  return [...out.matchAll(/(\/\S+\.so[.\d]*)\s/g)].map((m) => m[1]);
}

/** A failure is one sentence on stderr and exit 2, never a stack trace. */
let rootfs;
function fail(sentence) {
  if (rootfs) rmSync(rootfs, { recursive: true, force: true });
  console.error(`build:image: ${sentence.trim()}`);
  process.exit(2);
}

// Checked first, so a missing daemon costs a second, not a rootfs copy.
const daemon = spawnSync('docker', ['version', '--format', '{{.Server.Version}}'], { encoding: 'utf8' });
if (daemon.error)
  fail(`the docker command is not installed (${daemon.error.message}); install Docker (Debian: docker.io) and start dockerd`);
if (daemon.status !== 0)
  fail(
    `the Docker daemon does not answer (${(daemon.stderr.split('\n').find((l) => l.trim()) ?? 'no output').trim()}); start it, e.g. dockerd --storage-driver=vfs`,
  );

rootfs = mkdtempSync(join(tmpdir(), 'stablepay-rootfs-'));
try {
  const node = process.execPath;
  const libraries = new Set([...sharedLibraries(node), ...(existsSync(FAKETIME_LIB) ? sharedLibraries(FAKETIME_LIB) : [])]);
  mkdirSync(join(rootfs, 'usr/local/bin'), { recursive: true });
  cpSync(node, join(rootfs, 'usr/local/bin/node'), { dereference: true });
  for (const library of libraries) {
    mkdirSync(join(rootfs, dirname(library)), { recursive: true });
    cpSync(library, join(rootfs, library), { dereference: true });
  }
  mkdirSync(join(rootfs, 'tmp'));
  chmodSync(join(rootfs, 'tmp'), 0o1777);

  const app = join(rootfs, 'app');
  const tracked = execFileSync('git', ['ls-files', '--cached', '--others', '--exclude-standard'], { cwd: root, encoding: 'utf8' })
    .split('\n')
    .filter(Boolean);
  for (const file of tracked) {
    if (LEFT_OUT.some((pattern) => pattern.test(file)) || !existsSync(join(root, file))) continue;
    mkdirSync(dirname(join(app, file)), { recursive: true });
    cpSync(join(root, file), join(app, file), { dereference: true });
  }
  // An ahead-of-time build, when there is one, runs without compiling at start.
  if (existsSync(join(root, 'dist'))) cpSync(join(root, 'dist'), join(app, 'dist'), { recursive: true, dereference: true });
  // Production dependencies only, as npm resolved them here (nothing is downloaded).
  const packages = execFileSync('npm', ['ls', '--omit=dev', '--all', '--parseable'], { cwd: root, encoding: 'utf8' })
    .split('\n')
    .filter(Boolean);
  for (const dir of packages) {
    const rel = relative(root, dir);
    if (!rel.startsWith('node_modules')) continue;
    const target = join(app, rel);
    if (existsSync(target)) continue; // inside a package already copied
    // A workspace (node_modules/@stablepay/*) is a link to its folder, which is copied with the app: linked the same way.
    const real = realpathSync(dir);
    if (!relative(root, real).startsWith('node_modules')) {
      mkdirSync(dirname(target), { recursive: true });
      symlinkSync(relative(dirname(target), join(app, relative(root, real))), target);
      continue;
    }
    cpSync(dir, target, { recursive: true, dereference: true });
  }

  const changes = [
    'WORKDIR /app',
    'ENV NODE_ENV=production',
    'ENV STABLEPAY_HOST=0.0.0.0',
    'ENV STABLEPAY_PORT=4000',
    'EXPOSE 4000',
    'ENTRYPOINT ["/usr/local/bin/node", "/app/bin/stablepay.js"]',
    'CMD ["start", "--no-demo-payment"]',
  ];
  const tar = spawnSync('tar', ['-C', rootfs, '-c', '.'], { maxBuffer: 4 * 1024 ** 3 });
  if (tar.status !== 0) fail(`tar of the root filesystem failed: ${String(tar.stderr).split('\n')[0]}`);
  const imported = spawnSync('docker', ['import', ...changes.flatMap((c) => ['--change', c]), '-', tag], {
    input: tar.stdout,
    encoding: 'utf8',
    maxBuffer: 64 * 1024 ** 2,
  });
  if (imported.status !== 0) fail(`docker import failed: ${imported.stderr.split('\n').find((l) => l.trim()) ?? ''}`);
  console.log(`built ${tag} (${imported.stdout.trim()}) from ${packages.length} packages and ${libraries.size} shared libraries`);
} finally {
  rmSync(rootfs, { recursive: true, force: true });
}
