// Webhook configuration records: GET is 404 before setup; POST creates the endpoint and shows the
// secret once (never again on GET or PUT); PUT changes url/enabled; bad URLs are 400; a disabled
// endpoint refuses the test event (409) and records nothing. A merchant of its own (control API) or the second merchant.
// The payloads are not shown: bodies are the run's templates and the secret is found by what it is
// (support/webhook-config.ts); the record's shape, the URL rules and the enabled flag are ours and warn.
import type { Payment } from '@stablepay/contract/types';
import type { CheckContext } from '../../context.ts';
import type { HttpResponse } from '../../http/client.ts';
import { defineCheck } from '../../registry.ts';
import { fillTemplate } from '../../premises/templates.ts';
import { acceptedAmount } from '../../support/amounts.ts';
import { readList } from '../../support/lists.ts';
import { configureEndpoint, secretFrom, sendTestEvent } from '../../support/webhook-config.ts';

const ENDPOINT_FIELDS = ['id', 'url', 'enabled', 'secretLast4', 'createdAt', 'updatedAt'];

/** The simulator's record (assumed shape: warns); `secretField` is where the run found the secret, on setup only. */
function expectRecord(ctx: CheckContext, response: HttpResponse, secretField: string | null): Record<string, unknown> {
  const record = (response.json ?? {}) as Record<string, unknown>;
  const keys = Object.keys(record).sort();
  const wanted = [...ENDPOINT_FIELDS, ...(secretField ? [secretField] : [])].sort();
  ctx.addCases();
  ctx.expect(
    keys.join(',') === wanted.join(','),
    'WH-ENDPOINT-RECORD-SHAPE',
    'The webhook endpoint record does not have the documented fields',
    `fields ${keys.join(', ')}; expected ${wanted.join(', ')}`,
    response.exchange,
  );
  return record;
}

/** "Shown only once": after setup no response carries the secret's value, wherever it would sit. */
function expectSecretHidden(ctx: CheckContext, response: HttpResponse, secret: string): void {
  ctx.expect(
    !response.text.includes(secret),
    'WH-SECRET-SHOWN-ONCE',
    'The webhook secret is shown again',
    `${response.exchange.method} ${new URL(response.exchange.url).pathname} returned the secret`,
    response.exchange,
  );
}

export const webhookEndpointRecords = defineCheck({
  id: 'webhook-config.endpoint-records',
  title: 'Webhook configuration: GET/POST/PUT records, the secret shown once, URL rules, a disabled endpoint gets nothing',
  requirements: [
    'WH-CONFIG-ENDPOINTS',
    'WH-SECRET-SHOWN-ONCE',
    'WH-CONFIG-TEST-ENDPOINT',
    'WH-CONFIG-GET-404',
    'WH-CONFIG-CREATE',
    'WH-CONFIG-UPDATE',
    'WH-CONFIG-URL-RULES',
    'WH-ENDPOINT-RECORD-SHAPE',
    'WH-TEST-DISABLED-409',
    'WH-DISABLED-NO-DELIVERIES',
    'WH-DELIVERIES-QUERY-RULES',
  ],
  level: 'documented',
  needs: [],
  tags: ['webhooks', 'negative'],
  premises: [
    'webhooks.create-body',
    'webhooks.update-body',
    'webhooks.secret-field',
    'webhooks.test-with-api-key',
    'payments.minimum-amounts',
    'list.item-key',
  ],
  async run(ctx: CheckContext) {
    // A merchant without an endpoint: a fresh one through the control API, else the second merchant (--second-api-key).
    let api;
    if (ctx.services.control) api = (await ctx.newMerchant('webhook config')).api;
    else if (ctx.options.secondApiKey) api = ctx.api.withCredential({ key: ctx.options.secondApiKey, label: 'STABLEPAY_SECOND_API_KEY' });
    else ctx.notExercised('needs a merchant without a webhook endpoint: the control API or --second-api-key');
    const none = await api.get('/v1/webhooks');
    if (!ctx.services.control && none.status === 200)
      ctx.notExercised('the second merchant already has a webhook endpoint (an endpoint cannot be deleted)');
    ctx.addCases();
    ctx.expect(
      none.status === 404,
      'WH-CONFIG-GET-404',
      'GET /v1/webhooks without an endpoint is not 404',
      `answered ${none.status}: ${none.text.slice(0, 200)}`,
      none.exchange,
    );
    for (const url of [
      'ftp://example.com/hook',
      'not a url',
      'http://',
      'https://exa mple.com/x',
      'https://user:pw@example.com/x',
      `https://example.com/${'a'.repeat(2048)}`,
    ]) {
      const refused = await api.post('/v1/webhooks', fillTemplate(await ctx.premise('webhooks.create-body'), { url }));
      ctx.addCases();
      ctx.expect(
        refused.status === 400,
        'WH-CONFIG-URL-RULES',
        'A webhook URL breaking the rules is accepted',
        `url ${JSON.stringify(url.slice(0, 60))}: ${refused.status}`,
        refused.exchange,
      );
      if (refused.status < 300) await configureEndpoint(ctx, api, 'update', { enabled: false });
    }
    const url = 'https://merchant.example/hooks/stablepay';
    const created = await configureEndpoint(ctx, api, 'create', { url });
    ctx.require(
      created.ok,
      'WH-CONFIG-ENDPOINTS',
      'POST /v1/webhooks does not create the endpoint',
      () => `sent ${JSON.stringify(created.sent)}; answered ${created.response.status}: ${created.response.text.slice(0, 300)}`,
      created.response.exchange,
    );
    const secret = await secretFrom(ctx, created.response, url);
    ctx.require(
      secret !== undefined,
      'WH-SECRET-SHOWN-ONCE',
      'The webhook secret is not shown at setup',
      () => `no field the run could take for the secret (premise webhooks.secret-field): ${created.response.text.slice(0, 300)}`,
      created.response.exchange,
    );
    ctx.services.secrets.add(secret, 'CONFIG_WEBHOOK_SECRET');
    const secretField = await ctx.premise('webhooks.secret-field');
    const record = expectRecord(ctx, created.response, secretField);
    ctx.expect(
      created.response.status === 201 &&
        /^whsec_[0-9a-f]{64}$/.test(secret) &&
        record.secretLast4 === secret.slice(-4) &&
        record.url === url &&
        record.enabled === true,
      'WH-CONFIG-CREATE',
      'The created endpoint is not 201 {url, enabled true, secret whsec_<64 hex>, secretLast4}',
      () =>
        `status ${created.response.status}, url ${record.url}, enabled ${record.enabled}, secretLast4 ${record.secretLast4}, secret length ${secret.length}`,
      created.response.exchange,
    );
    const twice = await configureEndpoint(ctx, api, 'create', { url });
    ctx.addCases();
    ctx.expect(
      twice.response.status === 409,
      'WH-CONFIG-CREATE',
      'A second webhook endpoint is not refused with 409',
      `answered ${twice.response.status}`,
      twice.response.exchange,
    );
    const read = await api.get('/v1/webhooks');
    ctx.requireStatus(read, '2xx', 'WH-CONFIG-ENDPOINTS', 'GET /v1/webhooks does not read the endpoint');
    expectRecord(ctx, read, null);
    expectSecretHidden(ctx, read, secret);
    ctx.expect(
      read.text.includes(url),
      'WH-CONFIG-ENDPOINTS',
      'GET /v1/webhooks does not show the endpoint just configured',
      () => `no mention of ${url}: ${read.text.slice(0, 200)}`,
      read.exchange,
    );

    const moved = 'http://127.0.0.1:9/hooks/v2'; // refused at once: the test delivery fails fast
    const put = await configureEndpoint(ctx, api, 'update', { url: moved, enabled: false });
    ctx.require(
      put.ok,
      'WH-CONFIG-ENDPOINTS',
      'PUT /v1/webhooks does not update the endpoint',
      () => `sent ${JSON.stringify(put.sent)}; answered ${put.response.status}: ${put.response.text.slice(0, 300)}`,
      put.response.exchange,
    );
    const putRecord = expectRecord(ctx, put.response, null);
    expectSecretHidden(ctx, put.response, secret);
    ctx.expect(
      put.response.status === 200 &&
        putRecord.url === moved &&
        putRecord.enabled === false &&
        Date.parse(String(putRecord.updatedAt)) >= Date.parse(String(record.updatedAt)),
      'WH-CONFIG-UPDATE',
      'PUT /v1/webhooks did not apply url and enabled',
      `url ${putRecord.url}, enabled ${putRecord.enabled}`,
      put.response.exchange,
    );
    const empty = await api.put('/v1/webhooks', {});
    ctx.addCases();
    ctx.expect(
      empty.status === 400,
      'WH-CONFIG-URL-RULES',
      'PUT /v1/webhooks with neither field is not 400',
      `answered ${empty.status}`,
      empty.exchange,
    );

    const test = await api.request({ method: 'POST', path: '/v1/webhooks/test' });
    ctx.addCases();
    ctx.expect(
      test.status === 409,
      'WH-TEST-DISABLED-409',
      'The test event on a disabled endpoint is not 409',
      `answered ${test.status}: ${test.text.slice(0, 200)}`,
      test.exchange,
    );
    const payment = await api.post('/v1/payments', { amount: await acceptedAmount(ctx, 'USD', '10.00'), currency: 'USD' });
    ctx.requireStatus(payment, 201, 'WH-DISABLED-NO-DELIVERIES', 'Setup: create');
    ctx.requireStatus(
      await api.delete(`/v1/payments/${(payment.json as Payment).id}`),
      '2xx',
      'WH-DISABLED-NO-DELIVERIES',
      'Setup: cancel',
    );
    const deliveries = await api.get('/v1/webhooks/deliveries');
    ctx.requireStatus(deliveries, 200, 'WH-DISABLED-NO-DELIVERIES', 'GET /v1/webhooks/deliveries does not answer');
    const badId = await api.get('/v1/webhooks/deliveries', { paymentId: 'not-a-uuid' });
    ctx.addCases();
    ctx.expect(
      badId.status === 400,
      'WH-DELIVERIES-QUERY-RULES',
      'A paymentId that is no UUID is not 400',
      `answered ${badId.status}`,
      badId.exchange,
    );
    const recorded = (await readList(ctx, deliveries)).items;
    ctx.addCases();
    ctx.expect(
      Array.isArray(recorded) && recorded.length === 0,
      'WH-DISABLED-NO-DELIVERIES',
      'A disabled endpoint still gets deliveries recorded',
      `${Array.isArray(recorded) ? recorded.length : '?'} deliveries recorded while disabled`,
      deliveries.exchange,
    );

    const enable = await configureEndpoint(ctx, api, 'update', { enabled: true });
    ctx.require(
      enable.ok,
      'WH-CONFIG-UPDATE',
      'PUT /v1/webhooks {enabled: true} refused',
      () => `sent ${JSON.stringify(enable.sent)}; answered ${enable.response.status}`,
      enable.response.exchange,
    );
    // Whether an API key may send the test event is not shown: a 401/403 says it may not (legal), anything else is judged.
    const enabledTest = await sendTestEvent(ctx, api);
    ctx.addCases();
    if (enabledTest.status !== 401 && enabledTest.status !== 403) {
      ctx.expect(
        enabledTest.status >= 200 && enabledTest.status < 300,
        'WH-CONFIG-TEST-ENDPOINT',
        'POST /v1/webhooks/test does not send a test event',
        `answered ${enabledTest.status}: ${enabledTest.text.slice(0, 200)}`,
        enabledTest.exchange,
      );
    }
  },
});
