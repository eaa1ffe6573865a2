// Test helpers: a simulator with a known key and a recording webhook fake, and a small client
// over app.request() that returns status, headers and parsed JSON.
import type { Simulator, SimulatorOptions } from '../runtime/app.ts';
import { createSimulator } from '../runtime/app.ts';
import { VirtualClock } from '../core/clock/virtual-clock.ts';
import type { RecordingWebhookService } from './recording-webhooks.ts';
import { createRecordingWebhooks } from './recording-webhooks.ts';

export const TEST_API_KEY = 'pk_test0000000000000000000000000000000000000000000000';
export const TEST_START = Date.parse('2026-11-21T10:00:00.000Z');
export const SELLER_A = '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed';
export const SELLER_B = '0xfb6916095ca1df60bb79ce92ce3ea74c37c5d359';

export interface TestResponse {
  status: number;
  headers: Headers;
  body: any;
  text: string;
}

export interface Harness {
  sim: Simulator;
  webhooks: RecordingWebhookService;
  request(
    method: string,
    path: string,
    options?: { body?: unknown; raw?: string; key?: string | null; headers?: Record<string, string>; ip?: string },
  ): Promise<TestResponse>;
  createPayment(body?: Record<string, unknown>, key?: string): Promise<TestResponse>;
}

/** A simulator whose virtual clock starts at TEST_START and stands still unless advanced. */
export function createHarness(options: SimulatorOptions = {}): Harness {
  const webhooks = createRecordingWebhooks();
  const clock = new VirtualClock({ wallNow: () => 0, offsetMs: TEST_START });
  const sim = createSimulator({ defaultApiKey: TEST_API_KEY, clock, webhooks, logger: { info() {}, error() {} }, ...options });
  const request: Harness['request'] = async (method, path, o = {}) => {
    const headers: Record<string, string> = { ...o.headers };
    const key = o.key === undefined ? TEST_API_KEY : o.key;
    if (key !== null) headers.authorization ??= `Bearer ${key}`;
    let body: string | undefined = o.raw;
    if (o.body !== undefined) {
      body = JSON.stringify(o.body);
      headers['content-type'] ??= 'application/json';
    }
    const env = o.ip ? { incoming: { socket: { remoteAddress: o.ip } } } : undefined;
    const res = await sim.app.request(path, { method, headers, ...(body !== undefined ? { body } : {}) }, env);
    const text = await res.text();
    let parsed: unknown;
    try {
      parsed = text ? JSON.parse(text) : undefined;
    } catch {
      parsed = undefined;
    }
    return { status: res.status, headers: res.headers, body: parsed, text };
  };
  return {
    sim,
    webhooks,
    request,
    createPayment: (body = { amount: '100', currency: 'USD' }, key) => request('POST', '/v1/payments', { body, ...(key ? { key } : {}) }),
  };
}
