// The API reference with the network cut off, as a merchant on a plane opens it: the simulator's /docs and the built
// dist/docs.html (opened from disk) in real Chromium, every request that would leave the machine refused and recorded.
// Every operation and webhook of openapi.yaml renders (its title, its status codes, the properties of every body
// schema), every named example is offered, search answers, and nothing tried to reach the network: no request beyond
// the page's own origin, no Content-Security-Policy refusal, no script error. A screenshot is left in
// test-results/screenshots/.
import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import SwaggerParser from '@apidevtools/swagger-parser';
import type { Browser, BrowserContext, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium } from '@stablepay/conformance/chromium';
import { fromPackageRoot } from '@stablepay/contract/package-root';
import { startServer, type RunningServer } from '@stablepay/simulator/server';
import { SCREENSHOT_DIR } from './support/screenshots.ts';

type Json = any;

interface DocumentedOperation {
  route: string;
  title: string;
  method: string;
  path: string;
  statuses: string[];
  /** Property names of the request body and of each response's body, per status ('request' for the body). */
  properties: Map<string, string[]>;
  /** Named examples (their summaries, else their keys) of the request body and of each response. */
  examples: Map<string, string[]>;
}

const slug = (text: string) => text.toLowerCase().replace(/[^a-z0-9]+/g, '-');

/** Top-level property names of a schema as the reference shows them (the first case of a oneOf). */
function propertyNames(schema: Json): string[] {
  if (!schema || typeof schema !== 'object') return [];
  const own = Object.keys(schema.properties ?? {});
  const parts = [...(schema.allOf ?? []), ...(schema.oneOf ? [schema.oneOf[0]] : []), ...(schema.anyOf ? [schema.anyOf[0]] : [])];
  return [...new Set([...own, ...parts.flatMap(propertyNames)])];
}

function examplesOf(content: Json): string[] {
  const media = content?.['application/json'];
  return Object.entries(media?.examples ?? {}).map(([key, example]) => (example as { summary?: string }).summary ?? key);
}

function documented(operation: Json, route: string, method: string, path: string): DocumentedOperation {
  const properties = new Map<string, string[]>();
  const examples = new Map<string, string[]>();
  const body = operation.requestBody?.content?.['application/json'];
  if (body) {
    properties.set('request', propertyNames(body.schema));
    examples.set('request', examplesOf(operation.requestBody.content));
  }
  for (const [status, response] of Object.entries<Json>(operation.responses ?? {})) {
    properties.set(status, propertyNames(response.content?.['application/json']?.schema));
    examples.set(status, examplesOf(response.content));
  }
  return {
    route,
    title: operation.summary,
    method: method.toUpperCase(),
    path,
    statuses: Object.keys(operation.responses ?? {}),
    properties,
    examples,
  };
}

async function documentedOperations(): Promise<DocumentedOperation[]> {
  const contract = (await SwaggerParser.dereference(fromPackageRoot('openapi.yaml'))) as Json;
  const operations: DocumentedOperation[] = [];
  for (const [path, item] of Object.entries<Json>(contract.paths)) {
    for (const method of ['get', 'post', 'put', 'delete', 'patch']) {
      const operation = item[method];
      if (operation)
        operations.push(documented(operation, `${slug(operation.tags[0])}/${operation.operationId.toLowerCase()}`, method, path));
    }
  }
  for (const [name, item] of Object.entries<Json>(contract.webhooks ?? {})) {
    operations.push(documented(item.post, `events/${item.post.operationId.toLowerCase()}`, 'post', name));
  }
  return operations;
}

/**
 * A browser context that lets only the page's own origin (or file:, data:, blob:) through and records the rest, and
 * the script errors and policy refusals its pages report (a request the page's own policy refused never reaches the
 * route, so it is counted from the page's securitypolicyviolation event).
 */
async function watchedContext(
  browser: Browser,
  ownOrigin: string | null,
  outside: string[],
): Promise<{ context: BrowserContext; problems: string[] }> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  const problems: string[] = [];
  await context.route('**/*', (route) => {
    const url = route.request().url();
    if (/^(file|data|blob):/.test(url) || (ownOrigin !== null && url.startsWith(`${ownOrigin}/`))) return route.continue();
    outside.push(url);
    return route.abort('internetdisconnected');
  });
  await context.addInitScript(() => {
    document.addEventListener('securitypolicyviolation', (event) =>
      console.error(`CSP refused ${event.blockedURI} (${event.violatedDirective})`),
    );
  });
  context.on('page', (page) => {
    page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
    page.on('console', (message) => {
      if (message.type() === 'error') problems.push(message.text());
    });
  });
  return { context, problems };
}

/** What the reference shows of one operation, read from its section. */
async function rendered(
  page: Page,
  base: string,
  operation: DocumentedOperation,
): Promise<{ text: string; statuses: string[]; offered: Map<string, string[]> }> {
  await page.goto(`${base}#/${operation.route}`);
  const section = page.locator(`[id="${operation.route}"]`);
  await section.waitFor({ state: 'visible', timeout: 15_000 });
  const statuses = await section.getByRole('tab').allTextContents();
  // Each response's body is shown once its tab is chosen; its properties are read then.
  // biome-ignore lint/performance/useDomNodeTextContent: a Playwright locator: innerText is the text a person sees rendered
  let text = await section.innerText();
  for (const status of operation.statuses) {
    const tab = section.getByRole('tab', { name: status, exact: true });
    if ((operation.properties.get(status) ?? []).length === 0 || (await tab.count()) === 0) continue;
    await tab.first().click();
    // biome-ignore lint/performance/useDomNodeTextContent: a Playwright locator: innerText is the text a person sees rendered
    text += `\n${await section.innerText()}`;
  }
  const offered = new Map<string, string[]>();
  if ((operation.examples.get('request') ?? []).length > 1) offered.set('request', await dropdownItems(page, section));
  for (const status of operation.statuses) {
    if ((operation.examples.get(status) ?? []).length < 2) continue;
    // The sample panel on the right has a button per status (not a tab); its examples sit behind a dropdown.
    const button = section.locator('button:not([role="tab"])', { hasText: new RegExp(`^${status}$`) });
    if ((await button.count()) > 0) await button.first().click();
    offered.set(status, await dropdownItems(page, section));
  }
  return { text, statuses, offered };
}

/** The example names the section's dropdowns offer (opened one by one), plus the ones shown as chosen. */
async function dropdownItems(page: Page, section: Locator): Promise<string[]> {
  const names: string[] = [];
  // The example selectors sit in the sample panels' bodies (the panels' headers hold the method and server menus).
  const dropdowns = section.locator('[data-component-name="Panel/PanelBody"] button[aria-haspopup="menu"]');
  for (let index = 0; index < (await dropdowns.count()); index++) {
    const dropdown = dropdowns.nth(index);
    // biome-ignore lint/performance/useDomNodeTextContent: a Playwright locator: innerText is the text a person sees rendered
    names.push((await dropdown.innerText()).trim());
    await dropdown.click();
    const menu = page.getByRole('menu');
    await menu.first().waitFor({ state: 'visible', timeout: 5_000 });
    names.push(...(await page.getByRole('menuitem').allInnerTexts()).map((t) => t.trim()));
    await dropdown.click();
    await menu.first().waitFor({ state: 'hidden', timeout: 5_000 });
  }
  return names;
}

describe('API reference offline', () => {
  let browser: Browser;
  let server: RunningServer;
  let operations: DocumentedOperation[];

  beforeAll(async () => {
    operations = await documentedOperations();
    // One context per page, closed after it: the packaged single-process build dies when a context closes.
    browser = await launchChromium({ multiProcess: true });
    server = await startServer({ port: 0, logger: { info() {}, error() {} } });
  });

  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  it('the simulator’s /docs: every operation, webhook, body schema and example renders, search answers, nothing leaves the machine', {
    timeout: 300_000,
  }, async () => {
    const outside: string[] = [];
    const { context, problems } = await watchedContext(browser, server.url, outside);
    const page = await context.newPage();
    try {
      expect(operations.length).toBe(18 + 13);
      for (const operation of operations) {
        const shown = await rendered(page, `${server.url}/docs`, operation);
        const where = `${operation.method} ${operation.path}`;
        expect(shown.text, where).toContain(operation.title);
        expect(shown.statuses, where).toEqual(expect.arrayContaining(operation.statuses));
        for (const [part, names] of operation.properties) {
          for (const name of names) expect(shown.text, `${where} ${part} body: ${name}`).toContain(name);
        }
        for (const [part, names] of operation.examples) {
          if (names.length < 2) continue;
          for (const name of names) expect(shown.offered.get(part) ?? [], `${where} ${part} example "${name}"`).toContain(name);
        }
      }
      await page.goto(`${server.url}/docs#/payments/createpayment`);
      await page.getByText('Create a payment', { exact: true }).first().waitFor();
      // The first screen, as a person sees it (a full-page shot of this layout is mostly the sticky sidebar repeated).
      mkdirSync(SCREENSHOT_DIR, { recursive: true });
      await page.screenshot({ path: join(SCREENSHOT_DIR, 'docs-offline.png') });
      await page.keyboard.press('Control+k');
      await page.keyboard.type('regenerate');
      // The result names the operation's path, which the Payments page itself does not show.
      // biome-ignore lint/performance/useDomNodeTextContent: a Playwright locator: innerText is the text a person sees rendered
      await expect.poll(() => page.locator('body').innerText(), { timeout: 10_000 }).toContain('/v1/webhooks/regenerate-secret');
    } finally {
      await context.close();
    }
    expect(outside, 'requests that tried to leave the machine').toEqual([]);
    expect(problems, 'script errors or refused requests').toEqual([]);
  });

  it('dist/docs.html is what /docs serves, and opened from disk it renders with nothing leaving the machine', {
    timeout: 120_000,
  }, async () => {
    const file = fromPackageRoot('dist', 'docs.html');
    expect(await (await fetch(`${server.url}/docs`)).text()).toBe(readFileSync(file, 'utf8'));
    const outside: string[] = [];
    const { context, problems } = await watchedContext(browser, null, outside);
    const page = await context.newPage();
    try {
      for (const operation of [operations[0]!, operations.at(-1)!]) {
        const shown = await rendered(page, pathToFileURL(file).href, operation);
        expect(shown.text).toContain(operation.title);
      }
    } finally {
      await context.close();
    }
    expect(outside).toEqual([]);
    expect(problems).toEqual([]);
  });

  it('the page carries its own script and a policy that refuses the network', () => {
    const page = readFileSync(fromPackageRoot('dist', 'docs.html'), 'utf8');
    expect(page).toContain('http-equiv="Content-Security-Policy"');
    expect(page).toContain("connect-src 'none'");
    expect(page).not.toMatch(/<script[^>]+src="https?:/);
    expect(page).not.toMatch(/from\s*"https?:\/\//);
    expect(page).toContain('"disableTelemetry":true');
  });
});
