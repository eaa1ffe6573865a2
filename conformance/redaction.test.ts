import { describe, expect, it } from 'vitest';
import { toCurl } from './http/curl.ts';
import type { Exchange } from './http/recorder.ts';
import { redactHeaders, SecretRegistry } from './http/redact.ts';

const KEY = 'pk_live0123456789abcdefABCDEF0123456789abcdef0123';
const WHSEC = `whsec_${'ab'.repeat(32)}`;

function exchange(partial: Partial<Exchange>): Exchange {
  return {
    id: 1,
    checkId: 'x.y',
    target: 'service',
    method: 'POST',
    url: 'http://127.0.0.1:4000/v1/payments',
    requestHeaders: { 'content-type': 'application/json', authorization: 'Bearer REDACTED:STABLEPAY_API_KEY' },
    credential: { kind: 'secret', label: 'STABLEPAY_API_KEY' },
    requestBody: '{"amount":"10"}',
    status: 201,
    responseHeaders: {},
    responseBody: '',
    durationMs: 1,
    transportError: null,
    startedAt: '2026-01-01T00:00:00.000Z',
    ...partial,
  };
}

describe('SecretRegistry', () => {
  it('scrubs registered secrets and anything shaped like a key or webhook secret', () => {
    const secrets = new SecretRegistry();
    secrets.add(KEY, 'STABLEPAY_API_KEY');
    const text = `key ${KEY} secret ${WHSEC} other pk_${'Z'.repeat(40)}`;
    const scrubbed = secrets.scrub(text);
    expect(scrubbed).not.toContain(KEY);
    expect(scrubbed).not.toContain(WHSEC);
    expect(scrubbed).not.toContain('Z'.repeat(40));
    expect(scrubbed).toContain('[REDACTED:STABLEPAY_API_KEY]');
  });

  it('leaves deliberately invalid, public credentials readable', () => {
    const secrets = new SecretRegistry();
    const unknown = `pk_${'d'.repeat(48)}`;
    secrets.addPublic(unknown);
    expect(secrets.scrub(`Bearer ${unknown}`)).toBe(`Bearer ${unknown}`);
  });

  it('scrubs nested values', () => {
    const secrets = new SecretRegistry();
    secrets.add(WHSEC, 'WEBHOOK_SECRET_1');
    expect(JSON.stringify(secrets.scrubValue({ a: [{ b: WHSEC }], n: 1 }))).toBe('{"a":[{"b":"[REDACTED:WEBHOOK_SECRET_1]"}],"n":1}');
  });
});

describe('redactHeaders', () => {
  it('never records a credential header value', () => {
    const secrets = new SecretRegistry();
    secrets.add(KEY, 'STABLEPAY_API_KEY');
    const out = redactHeaders({ Authorization: `Bearer ${KEY}`, cookie: 'session=abc', 'content-type': 'application/json' }, secrets);
    expect(out).toEqual({ Authorization: 'Bearer REDACTED:STABLEPAY_API_KEY', cookie: 'REDACTED', 'content-type': 'application/json' });
    expect(redactHeaders({ authorization: 'Bearer pk_someoneelses0123456789' }, secrets).authorization).toBe('Bearer REDACTED');
  });
});

describe('curl reproductions', () => {
  it('refer to the key as a shell variable', () => {
    const curl = toCurl(exchange({}), new SecretRegistry());
    expect(curl).toBe(
      `curl -i -X POST 'http://127.0.0.1:4000/v1/payments' -H "Authorization: Bearer $STABLEPAY_API_KEY" -H 'content-type: application/json' --data-raw '{"amount":"10"}'`,
    );
  });

  it('show public (invalid) credentials as sent and quote single quotes', () => {
    const curl = toCurl(
      exchange({ credential: { kind: 'public', header: 'Basic dXNlcg==' }, requestBody: `{"title":"it's"}` }),
      new SecretRegistry(),
    );
    expect(curl).toContain(`-H 'Authorization: Basic dXNlcg=='`);
    expect(curl).toContain(`--data-raw '{"title":"it'\\''s"}'`);
  });

  it('replace a secret inside a body with its variable', () => {
    const secrets = new SecretRegistry();
    secrets.add(WHSEC, 'WEBHOOK_SECRET_1');
    const curl = toCurl(exchange({ requestBody: `{"secret":"${WHSEC}","price":"$5"}` }), secrets);
    expect(curl).not.toContain(WHSEC);
    expect(curl).toContain('$WEBHOOK_SECRET_1');
    expect(curl).toContain('\\$5');
  });
});
