// --record writes HAR 1.2: the output validates against the HAR 1.2 JSON schema (har-schema, the schema HAR tools
// validate with) and carries what devtools needs, and no credential or secret appears in it.
import { createRequire } from 'node:module';
import { Ajv } from 'ajv';
import addFormats from 'ajv-formats';
import { describe, expect, it } from 'vitest';
import { Recorder, type Exchange } from '../http/recorder.ts';
import { redactHeaders, SecretRegistry } from '../http/redact.ts';
import { RECEIVED_PAGE, renderHar, toHar, type ReceivedDeliveries } from './har.ts';

const require = createRequire(import.meta.url);
const KEY = 'pk_harsecret0123456789abcdefghijklmnop';
const WHSEC = `whsec_${'ab'.repeat(32)}`;
const CONTROL_TOKEN = 'control-token-0123456789';

function harValidator() {
  const ajv = new Ajv({ allErrors: true, strict: false });
  ajv.addMetaSchema(require('ajv/dist/refs/json-schema-draft-06.json'));
  (addFormats as unknown as (a: Ajv) => void)(ajv);
  const schemas = require('har-schema') as Record<string, object>;
  for (const schema of Object.values(schemas)) ajv.addSchema(schema);
  return ajv.getSchema('har.json#')!;
}

function recorded(): { recorder: Recorder; secrets: SecretRegistry } {
  const secrets = new SecretRegistry();
  secrets.add(KEY, 'STABLEPAY_API_KEY');
  secrets.add(WHSEC, 'WEBHOOK_SECRET_1');
  secrets.add(CONTROL_TOKEN, 'STABLEPAY_CONTROL_TOKEN');
  const recorder = new Recorder();
  const base = {
    credential: { kind: 'secret', label: 'STABLEPAY_API_KEY' } as const,
    durationMs: 12,
    transportError: null,
    startedAt: '2026-01-01T00:00:00.000Z',
  };
  recorder.currentCheck = 'webhook-config.endpoint-records';
  recorder.add({
    ...base,
    target: 'service',
    method: 'POST',
    url: 'http://127.0.0.1:4000/v1/webhooks?x=1',
    requestHeaders: redactHeaders({ authorization: `Bearer ${KEY}`, 'content-type': 'application/json', 'x-api-key': KEY }, secrets),
    requestBody: '{"url":"http://127.0.0.1:9/hook"}',
    status: 201,
    responseHeaders: { 'content-type': 'application/json', 'set-cookie': 'session=abc', 'x-ratelimit-limit': '6000' },
    responseBody: JSON.stringify({ id: 'e1', secret: WHSEC }),
  } as Omit<Exchange, 'id' | 'checkId'>);
  recorder.currentCheck = 'control.response-conformance';
  recorder.add({
    ...base,
    target: 'control',
    method: 'GET',
    url: 'http://127.0.0.1:4000/control/v1/health',
    requestHeaders: redactHeaders({ 'x-control-token': CONTROL_TOKEN }, secrets),
    requestBody: undefined,
    status: null,
    responseHeaders: {},
    responseBody: '',
    transportError: 'ECONNREFUSED',
  } as Omit<Exchange, 'id' | 'checkId'>);
  return { recorder, secrets };
}

function received(): ReceivedDeliveries {
  const body = `{"event":"test","leak":"${WHSEC}"}`;
  return {
    baseUrl: 'http://127.0.0.1:5555',
    deliveries: [
      {
        id: 'delivery-1',
        path: '/webhooks-signature/u-1',
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${KEY}`, 'x-service-signature': 't=1,v1=ab' },
        rawBody: body,
        rawBytes: Buffer.from(body),
        json: JSON.parse(body),
        receivedAt: Date.parse('2026-01-01T00:00:00.005Z'),
        answeredStatus: 500,
      },
    ],
  };
}

describe('HAR recording', () => {
  it('puts the webhook deliveries the receiver got on a page of their own, in time order, redacted', () => {
    const { recorder, secrets } = recorded();
    const text = renderHar(recorder.all(), secrets, { name: 'stablepay conformance', version: '0.1.0' }, received());
    const har = JSON.parse(text);
    const validate = harValidator();
    expect(validate(har), JSON.stringify(validate.errors)).toBe(true);
    expect(har.log.pages.at(-1).id).toBe(RECEIVED_PAGE);
    const entry = har.log.entries.find((e: { pageref: string }) => e.pageref === RECEIVED_PAGE);
    expect(entry.request.url).toBe('http://127.0.0.1:5555/webhooks-signature/u-1');
    expect(entry.response.status).toBe(500);
    expect(entry._deliveryId).toBe('delivery-1');
    expect(entry.request.headers).toContainEqual({ name: 'authorization', value: 'Bearer REDACTED:STABLEPAY_API_KEY' });
    expect(entry.request.headers).toContainEqual({ name: 'x-service-signature', value: 't=1,v1=ab' });
    expect(text).not.toContain(WHSEC);
    expect(text).not.toContain(KEY);
    const times = har.log.entries.map((e: { startedDateTime: string }) => Date.parse(e.startedDateTime));
    expect(times).toEqual([...times].sort((a, b) => a - b));
  });

  it('validates against the HAR 1.2 schema and carries what devtools reads', () => {
    const { recorder, secrets } = recorded();
    const har = JSON.parse(renderHar(recorder.all(), secrets, { name: 'stablepay conformance', version: '0.1.0' }));
    const validate = harValidator();
    expect(validate(har), JSON.stringify(validate.errors)).toBe(true);
    // The schema is really applied: an entry without its timings is refused.
    const broken = structuredClone(har);
    delete broken.log.entries[0].timings;
    expect(validate(broken)).toBe(false);
    expect(har.log.version).toBe('1.2');
    expect(har.log.pages.map((p: { id: string }) => p.id)).toEqual(['webhook-config.endpoint-records', 'control.response-conformance']);
    const [post, failed] = har.log.entries;
    expect(post.pageref).toBe('webhook-config.endpoint-records');
    expect(post.request.postData).toEqual({ mimeType: 'application/json', text: '{"url":"http://127.0.0.1:9/hook"}' });
    expect(post.request.queryString).toEqual([{ name: 'x', value: '1' }]);
    expect(post.response.status).toBe(201);
    expect(post.response.statusText).toBe('Created');
    expect(post.response.content.mimeType).toBe('application/json');
    expect(failed.response.status).toBe(0);
    expect(failed._error).toBe('ECONNREFUSED');
  });

  it('redacts credentials in both directions and scrubs secrets from bodies', () => {
    const { recorder, secrets } = recorded();
    const text = renderHar(recorder.all(), secrets, { name: 'stablepay conformance', version: '0.1.0' });
    for (const secret of [KEY, WHSEC, CONTROL_TOKEN, 'session=abc']) expect(text).not.toContain(secret);
    const har = toHar(recorder.all(), secrets, { name: 'x', version: '1' });
    const header = (entry: number, side: 'request' | 'response', name: string) =>
      har.log.entries[entry]![side].headers.find((h) => h.name === name)?.value;
    expect(header(0, 'request', 'authorization')).toBe('Bearer REDACTED:STABLEPAY_API_KEY');
    expect(header(0, 'request', 'x-api-key')).toBe('REDACTED');
    expect(header(0, 'response', 'set-cookie')).toBe('REDACTED');
    expect(header(1, 'request', 'x-control-token')).toBe('REDACTED');
    expect(har.log.entries[0]!.response.content.text).toContain('[REDACTED:WEBHOOK_SECRET_1]');
  });
});
