// The served reference: landing page, the contract as YAML and JSON, the rendered docs (built by
// the test run's globalSetup), all without a key; the landing page's demo payment.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { fromPackageRoot } from '@stablepay/contract/package-root';
import { createSimulator } from '../../runtime/app.ts';

const sim = createSimulator({ logger: { info() {}, error() {} }, payUrl: 'http://pay.example' });

describe('served reference', () => {
  it('links the docs, the contract, the control API and a demo payment from /', async () => {
    const res = await sim.app.request('/');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/html/);
    const page = await res.text();
    for (const href of ['/docs', '/openapi.yaml', '/openapi.json', '/control/v1/health']) expect(page).toContain(`href="${href}"`);
    expect(page).toContain('action="/demo-payment"');
  });

  it('serves openapi.yaml as written and the same document as JSON, without a key', async () => {
    const yaml = await sim.app.request('/openapi.yaml');
    expect(yaml.status).toBe(200);
    expect(yaml.headers.get('content-type')).toMatch(/^application\/yaml/);
    const text = await yaml.text();
    expect(text).toBe(readFileSync(fromPackageRoot('openapi.yaml'), 'utf8'));
    const json = await sim.app.request('/openapi.json');
    expect(json.headers.get('content-type')).toMatch(/^application\/json/);
    expect(await json.json()).toEqual(parse(text));
  });

  it('serves the reference rendered ahead of time from the contract', async () => {
    const res = await sim.app.request('/docs');
    expect(res.status).toBe(200);
    const page = await res.text();
    const title = (parse(readFileSync(fromPackageRoot('openapi.yaml'), 'utf8')) as { info: { title: string } }).info.title;
    expect(page).toContain(title);
    expect(page).toContain('createPayment');
  });

  it('makes a demo payment for the default merchant on POST and sends the browser to its page', async () => {
    const res = await sim.app.request('/demo-payment', { method: 'POST' });
    expect(res.status).toBe(303);
    const id = /^http:\/\/pay\.example\/p\/([0-9a-f-]{36})$/.exec(res.headers.get('location') ?? '')?.[1];
    expect(id).toBeDefined();
    expect(sim.payments.store.get(id!)).toMatchObject({ merchantId: sim.defaultMerchant.id, status: 'ACTIVE', amount: '25.00' });
    // A GET creates nothing (404 or 405, whichever the HTTP edge answers for a known path).
    expect((await sim.app.request('/demo-payment')).status).toBeGreaterThanOrEqual(400);
  });
});
