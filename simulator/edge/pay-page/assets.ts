// The page's two static assets: the browser script, bundled from client/ ahead of time by the package build
// (scripts/build.mjs writes dist/pay-page.js; nothing is compiled while serving), and the stylesheet. Both are read
// on first request, kept for the life of the process, and carry an ETag.
import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { fromPackageRoot } from '@stablepay/contract/package-root';

export interface Asset {
  body: string;
  contentType: string;
  etag: string;
}

const CLIENT_BUNDLE = fromPackageRoot('dist', 'pay-page.js');
const STYLESHEET = fromPackageRoot('simulator', 'edge', 'pay-page', 'page', 'pay-page.css');

function asset(body: string, contentType: string): Asset {
  return { body, contentType, etag: `"${createHash('sha256').update(body).digest('base64url').slice(0, 27)}"` };
}

async function loadClientBundle(): Promise<Asset> {
  let body: string;
  try {
    body = await readFile(CLIENT_BUNDLE, 'utf8');
  } catch (cause) {
    throw new Error(`the payment page script ${CLIENT_BUNDLE} is not built; run \`npm run build\``, { cause });
  }
  return asset(body, 'text/javascript; charset=utf-8');
}

function cached(load: () => Promise<Asset>): () => Promise<Asset> {
  let pending: Promise<Asset> | undefined;
  return () => {
    // A failed load is not cached: the next request tries again (e.g. after building).
    pending ??= load().catch((error: unknown) => {
      pending = undefined;
      throw error;
    });
    return pending;
  };
}

export const clientScript = cached(loadClientBundle);
export const stylesheet = cached(async () => asset(await readFile(STYLESHEET, 'utf8'), 'text/css; charset=utf-8'));
