// A webhook finding's evidence reproduces the delivery: the body's bytes survive base64, the expected signature is
// the HMAC the spec asks for (recomputed here by openssl from the recorded command), the usual signer mistakes are
// recognised, the secret never appears, and a replay sends the recorded bytes (or a correct re-signature).
import { execFileSync } from 'node:child_process';
import { createHmac } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { SecretRegistry } from '../http/redact.ts';
import { deliveryEvidence } from './evidence.ts';
import type { Delivery } from './receiver.ts';
import { deliveriesIn, pickDelivery, replayRequest, sendReplay } from './replay.ts';
import { verifySignature } from './signature.ts';
import { renderDeliveryHtml } from '../reports/html.ts';
import { deliveryText } from '../reports/delivery-text.ts';

const SECRET = `whsec_${'5a'.repeat(32)}`;
const BODY = '{"event":"payment.cancelled","timestamp":"2026-01-01T00:00:00.000Z","data":{"paymentId":"p-1","externalId":"é ü"}}';
const T = '1767225600';

function hmac(key: string, payload: string): string {
  return createHmac('sha256', key).update(payload).digest('hex');
}

function delivery(v1: string, extraHeaders: Record<string, string> = {}, body = BODY): Delivery {
  return {
    id: 'delivery-7',
    path: '/webhooks-signature/x',
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      'x-service-timestamp': T,
      'x-service-signature': `t=${T},v1=${v1}`,
      host: 'h',
      'content-length': '1',
      ...extraHeaders,
    },
    rawBody: body,
    rawBytes: Buffer.from(body, 'utf8'),
    json: JSON.parse(body),
    receivedAt: Date.parse('2026-01-01T00:00:00.500Z'),
    answeredStatus: 200,
  };
}

function secrets(): SecretRegistry {
  const registry = new SecretRegistry();
  registry.add(SECRET, 'WEBHOOK_SECRET_1');
  return registry;
}

describe('webhook delivery evidence', () => {
  it('carries the body byte-exact, both signatures, and a compute command openssl agrees with', () => {
    const evidence = deliveryEvidence(delivery(hmac(SECRET, BODY)), { secret: SECRET, secrets: secrets(), reportDir: 'reports/x' });
    expect(Buffer.from(evidence.bodyBase64, 'base64').toString('utf8')).toBe(BODY);
    expect(evidence.signature.actual).toBe(hmac(SECRET, BODY));
    expect(evidence.signature.expected).toBe(hmac(SECRET, `${T}.${BODY}`));
    expect(evidence.signature.diagnosis).toBe('v1 is the HMAC of the raw body alone, without the `<t>.` prefix');
    expect(evidence.replay).toBe(`stablepay replay-delivery 'reports/x' --delivery delivery-7 --to "$WEBHOOK_URL"`);
    const computed = execFileSync('bash', ['-c', evidence.signature.compute!], {
      env: { ...process.env, STABLEPAY_WEBHOOK_SECRET: SECRET },
    }).toString();
    expect(computed.trim().split(/\s+/).at(-1)).toBe(evidence.signature.expected);
    expect(JSON.stringify(evidence)).not.toContain(SECRET);
  });

  it.each([
    ['without the dot', hmac(SECRET, `${T}${BODY}`), /without the dot/],
    ['keyed without the prefix', hmac(SECRET.replace('whsec_', ''), `${T}.${BODY}`), /without its `whsec_` prefix/],
    ['upper-case hex', hmac(SECRET, `${T}.${BODY}`).toUpperCase(), /upper-case hex/],
    ['another key', hmac('whsec_other', `${T}.${BODY}`), /none of the usual mistakes/],
  ])('diagnoses a signature %s', (_name, v1, pattern) => {
    expect(deliveryEvidence(delivery(v1), { secret: SECRET, secrets: secrets(), reportDir: '.' }).signature.diagnosis).toMatch(pattern);
  });

  it('redacts credentials in the headers and secrets in the body, and says so', () => {
    const body = `{"event":"x","leak":"${SECRET}"}`;
    const evidence = deliveryEvidence(delivery('00', { authorization: 'Bearer pk_abcdefghijklmnopqrstu' }, body), {
      secrets: secrets(),
      reportDir: '.',
    });
    expect(evidence.headers.authorization).toBe('Bearer REDACTED');
    expect(evidence.bodyRedacted).toBe(true);
    expect(Buffer.from(evidence.bodyBase64, 'base64').toString()).toBe('{"event":"x","leak":"[REDACTED:WEBHOOK_SECRET_1]"}');
    expect(evidence.signature.expected).toBeNull();
  });
});

describe('delivery evidence in the human reports', () => {
  it('shows the request as received, both signatures, the diagnosis and the commands, escaped in HTML', () => {
    const evidence = deliveryEvidence(delivery(hmac(SECRET, BODY), { 'x-note': '<b>' }), {
      secret: SECRET,
      secrets: secrets(),
      reportDir: 'reports',
    });
    const text = deliveryText(evidence);
    for (const part of [
      'POST /webhooks-signature/x',
      `x-service-signature: t=${T},v1=${evidence.signature.actual}`,
      BODY,
      `signature expected  v1=${evidence.signature.expected}`,
      'diagnosis: v1 is the HMAC of the raw body alone',
      evidence.signature.compute!,
      evidence.replay,
    ]) {
      expect(text).toContain(part);
    }
    const html = renderDeliveryHtml(evidence);
    expect(html).toContain('x-note: &lt;b&gt;');
    expect(html).not.toContain('<b>');
  });
});

describe('replaying a recorded delivery', () => {
  const evidence = deliveryEvidence(delivery(hmac(SECRET, BODY)), { secret: SECRET, secrets: secrets(), reportDir: '.' });
  const report = {
    failures: [
      { checkId: 'webhooks.signature', requirement: 'WH-SIGN-HMAC', title: 't', delivery: evidence },
      { checkId: 'a', delivery: evidence },
      { checkId: 'b' },
    ],
  };

  it('finds deliveries in a report, a finding or a bare delivery', () => {
    expect(deliveriesIn(report).map((d) => d.delivery.id)).toEqual(['delivery-7']);
    expect(deliveriesIn(report.failures[0]).map((d) => d.finding?.checkId)).toEqual(['webhooks.signature']);
    expect(deliveriesIn(evidence)).toHaveLength(1);
    expect(() => pickDelivery('r.json', deliveriesIn(report), 'delivery-9')).toThrow(
      'r.json: no delivery delivery-9 (it holds delivery-7)',
    );
  });

  it('posts the recorded bytes and headers, or a correct re-signature', async () => {
    const received: { headers: Record<string, string | string[] | undefined>; body: Buffer }[] = [];
    const server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        received.push({ headers: req.headers, body: Buffer.concat(chunks) });
        res.writeHead(received.length === 1 ? 401 : 204).end();
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`;
    try {
      expect((await sendReplay(url, replayRequest(evidence, null))).status).toBe(401);
      const now = 1767225700;
      expect((await sendReplay(url, replayRequest(evidence, { secret: SECRET, nowSeconds: now }))).status).toBe(204);
    } finally {
      server.close();
    }
    expect(received[0]!.body.toString('utf8')).toBe(BODY);
    expect(received[0]!.headers['x-service-signature']).toBe(`t=${T},v1=${hmac(SECRET, BODY)}`);
    expect(received[0]!.headers.host).not.toBe('h');
    const resigned = received[1]!;
    expect(resigned.body.toString('utf8')).toBe(BODY);
    expect(verifySignature({ headers: resigned.headers, rawBody: BODY, secret: SECRET, nowSeconds: 1767225700 })).toEqual({
      ok: true,
      timestamp: 1767225700,
    });
  });
});
