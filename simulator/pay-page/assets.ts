// The page's two static assets: the browser script, bundled from client/ by esbuild on first
// request and kept for the life of the process, and the stylesheet. Both carry an ETag.
import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

export interface Asset {
  body: string;
  contentType: string;
  etag: string;
}

const CLIENT_ENTRY = fileURLToPath(new URL('./client/main.ts', import.meta.url));
const STYLESHEET = fileURLToPath(new URL('./page/pay-page.css', import.meta.url));

function asset(body: string, contentType: string): Asset {
  return { body, contentType, etag: `"${createHash('sha256').update(body).digest('base64url').slice(0, 27)}"` };
}

async function bundleClient(): Promise<Asset> {
  const result = await build({
    entryPoints: [CLIENT_ENTRY],
    bundle: true,
    format: 'esm',
    platform: 'browser',
    target: 'es2022',
    minify: true,
    legalComments: 'none',
    write: false,
    logLevel: 'silent',
  });
  const [output] = result.outputFiles;
  if (!output) throw new Error('esbuild produced no output for the pay page script');
  return asset(output.text, 'text/javascript; charset=utf-8');
}

function cached(load: () => Promise<Asset>): () => Promise<Asset> {
  let pending: Promise<Asset> | undefined;
  return () => {
    // A failed build is not cached: the next request tries again (e.g. after fixing the source).
    pending ??= load().catch((error: unknown) => {
      pending = undefined;
      throw error;
    });
    return pending;
  };
}

export const clientScript = cached(bundleClient);
export const stylesheet = cached(async () => asset(await readFile(STYLESHEET, 'utf8'), 'text/css; charset=utf-8'));
