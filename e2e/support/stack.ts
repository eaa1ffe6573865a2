// One end-to-end stack per test file: Chromium, the merchant's site (webhook receiver, thank-you
// page, shop that embeds the page), and the chain-backed simulator on a free port with the
// merchant's webhook endpoint configured. Chromium starts first so a missing browser fails fast.
import type { Browser, BrowserContext, Page } from 'playwright-core';
import type { RunningServer } from '@stablepay/simulator/server';
import { startServer } from '@stablepay/simulator/server';
import { afterAll, beforeAll, beforeEach } from 'vitest';
import { browserSkipReason, launchChromium } from '@stablepay/conformance/chromium';
import type { MerchantSite } from './merchant-site.ts';
import { startMerchantSite } from './merchant-site.ts';

export const E2E_API_KEY = 'pk_e2e00000000000000000000000000000000';

export interface Stack {
  server: RunningServer;
  merchant: MerchantSite;
  browser: Browser;
  /** Call the merchant API with the default key; throws with the body on a non-2xx answer. */
  api<T = any>(method: string, path: string, body?: unknown): Promise<T>;
  /** A fresh browser context (own storage) and page; pages log their errors to the test output. */
  newPage(): Promise<Page>;
  close(): Promise<void>;
}

export async function startStack(): Promise<Stack> {
  const browser = await launchChromium();
  const contexts: BrowserContext[] = [];
  let merchant: MerchantSite | undefined;
  let server: RunningServer | undefined;
  try {
    merchant = await startMerchantSite();
    server = await startServer({
      host: '127.0.0.1',
      port: 0,
      chains: true,
      defaultApiKey: E2E_API_KEY,
      logger: { info() {}, error: (message, error) => console.error(message, error) },
    });
  } catch (error) {
    await browser.close();
    await merchant?.close();
    throw error;
  }
  const base = server.url;
  const api: Stack['api'] = async (method, path, body) => {
    const res = await fetch(`${base}${path}`, {
      method,
      headers: { authorization: `Bearer ${E2E_API_KEY}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const text = await res.text();
    if (!res.ok) throw new Error(`${method} ${path} -> HTTP ${res.status}: ${text}`);
    return text ? JSON.parse(text) : undefined;
  };
  const endpoint = await api<{ secret: string }>('POST', '/v1/webhooks', { url: merchant.webhookUrl });
  merchant.secret = endpoint.secret;

  return {
    server,
    merchant,
    browser,
    api,
    async newPage() {
      const context = await browser.newContext({ viewport: { width: 720, height: 1000 } });
      contexts.push(context);
      const page = await context.newPage();
      page.on('pageerror', (error) => console.error(`[browser] ${error.message}`));
      page.on('console', (message) => {
        if (message.type() === 'error' || message.type() === 'warning') console.error(`[browser ${message.type()}] ${message.text()}`);
      });
      return page;
    },
    async close() {
      for (const context of contexts) await context.close().catch(() => undefined);
      await browser.close();
      await server.close();
      await merchant.close();
    },
  };
}

/**
 * One stack per test file: started before the file's tests, closed after them, and every test
 * skipped with the stated reason when the browser is opted out. Returns the running stack.
 */
export function useStack(): () => Stack {
  let stack: Stack | undefined;
  beforeAll(async () => {
    if (!browserSkipReason) stack = await startStack();
  });
  afterAll(async () => stack?.close());
  beforeEach(({ skip }) => {
    if (browserSkipReason) skip(browserSkipReason);
  });
  return () => {
    if (!stack) throw new Error('the e2e stack is not running (started in beforeAll)');
    return stack;
  };
}
