// dist/docs.html: the API reference, rendered from openapi.yaml by `redocly build-docs` (a devDependency; about a
// second) and served by the simulator at /docs. It must work with no network at all (a merchant's laptop on a train,
// a CI runner without egress), so the page carries everything it runs:
//   - Redoc's script is inlined (`--inlineBundle`) instead of loaded from Redocly's CDN;
//   - Redocly's telemetry is off (`telemetry: off` in redocly.yaml), so the page posts nothing anywhere;
//   - the "API docs by Redocly" badge, the one image Redoc loads from its CDN at run time, is an inline SVG;
//   - a Content-Security-Policy in the page refuses any request that would still leave it (scripts, styles, images
//     and fonts only from the page itself or data: URLs, no fetch, no form posts), so a later Redoc that adds a
//     remote asset shows up as a refused request in the browser test (e2e/docs-offline.test.ts), not as a leak.
// Where @redocly/cli is not installed the build says so and goes on; /docs then answers 404.
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** What the page may load: itself (inline), data: and blob: URLs; nothing over the network. */
export const DOCS_CONTENT_SECURITY_POLICY = [
  "default-src 'none'",
  // Redoc evaluates code it builds (eval): harmless here, the policy is about the network.
  "script-src 'unsafe-inline' 'unsafe-eval'",
  "style-src 'unsafe-inline'",
  'img-src data: blob:',
  'font-src data:',
  'worker-src blob:',
  "connect-src 'none'",
  "base-uri 'none'",
  "form-action 'none'",
].join('; ');

/** Redoc's attribution badge, drawn here instead of fetched from cdn.redoc.ly (the words and the link stay). */
const BADGE_SVG = (width) =>
  `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="16" viewBox="0 0 ${width} 16"><text x="0" y="12" font-family="sans-serif" font-size="12" font-weight="600" fill="#0044d4">Redocly</text></svg>`;
const dataUrl = (svg) => `data:image/svg+xml,${encodeURIComponent(svg)}`;
const REMOTE_IMAGES = {
  'https://cdn.redoc.ly/redoc/logo-mini-full.svg': dataUrl(BADGE_SVG(52)),
  'https://cdn.redoc.ly/redoc/logo-mini.svg': dataUrl(BADGE_SVG(52)),
};

/** The rendered page made self-contained: remote images inlined, the CSP in its head. Throws if it cannot be. */
export function selfContained(html) {
  let page = html;
  for (const [remote, inline] of Object.entries(REMOTE_IMAGES)) page = page.split(remote).join(inline);
  if (/import\s*\{[^}]*\}\s*from\s*"https?:/.test(page) || /<link[^>]+href="https?:/.test(page)) {
    throw new Error('redocly build-docs left a script or stylesheet on the network; was --inlineBundle dropped?');
  }
  const head = /<head>/i.exec(page);
  if (!head) throw new Error('redocly build-docs wrote a page without <head>');
  const meta = `\n  <meta http-equiv="Content-Security-Policy" content="${DOCS_CONTENT_SECURITY_POLICY}" />`;
  return page.slice(0, head.index + head[0].length) + meta + page.slice(head.index + head[0].length);
}

/** Renders the reference into `<distDir>/docs.html`; false (with a warning) when @redocly/cli is not installed. */
export function buildDocs(root, distDir) {
  const cli = join(root, 'node_modules', '@redocly', 'cli', 'bin', 'cli.js');
  if (!existsSync(cli)) {
    console.warn('build: @redocly/cli is not installed, so dist/docs.html is not built (/docs will answer 404)');
    return false;
  }
  const temporary = join(distDir, `docs.html.${process.pid}.tmp`);
  const args = [cli, 'build-docs', 'openapi.yaml', '--config', 'redocly.yaml', '--inlineBundle', '-o', temporary];
  const run = spawnSync(process.execPath, args, { cwd: root, encoding: 'utf8', env: { ...process.env, REDOCLY_TELEMETRY: 'off' } });
  if (run.status !== 0) throw new Error(`redocly build-docs failed (${run.status}):\n${run.stderr || run.stdout}`);
  writeFileSync(temporary, selfContained(readFileSync(temporary, 'utf8')));
  // Renamed into place, so a simulator serving /docs during a build never reads half a file.
  renameSync(temporary, join(distDir, 'docs.html'));
  return true;
}
