// POST /v1/webhooks/test sends a `test` event with only `event` and `timestamp` (no `data`),
// signed like any delivery. Whether an API key may trigger it is not shown (assumed yes): an
// implementation that keeps it for dashboard sessions (401/403 to a key) leaves this check unexercised.
import type { CheckContext } from '../../context.ts';
import { defineCheck } from '../../registry.ts';
import { requireTestWithKey, sendTestEvent } from '../../support/webhook-config.ts';
import { SUBJECT_PREMISES, verifyDeliveries, webhookSubject, eventsOf, describeDeliveries } from './subject.ts';

export const testEvent = defineCheck({
  id: 'webhooks.test-event',
  title: 'The test event arrives signed, with event and timestamp and no data',
  requirements: ['WH-TEST-ALLOWED-WITH-API-KEY', 'WH-PAYLOAD-TEST-NO-DATA', 'WH-EVENT-TEST', 'WH-SIGN-HMAC', 'WH-CONFIG-ENDPOINTS'],
  level: 'documented',
  needs: ['webhook-receiver'],
  tags: ['webhooks'],
  resources: { exclusive: ['main-webhook-endpoint'] },
  premises: [...SUBJECT_PREMISES, 'webhooks.test-with-api-key'],
  async run(ctx: CheckContext) {
    const subject = await webhookSubject(ctx);
    const sent = await sendTestEvent(ctx, subject.api);
    ctx.expect(
      sent.status >= 200 && sent.status < 300,
      'WH-TEST-ALLOWED-WITH-API-KEY',
      'The test event cannot be sent with an API key',
      `POST /v1/webhooks/test answered ${sent.status}: ${sent.text.slice(0, 200)}`,
      sent.exchange,
    );
    await requireTestWithKey(ctx, sent);
    ctx.require(
      sent.status >= 200 && sent.status < 300,
      'WH-EVENT-TEST',
      'POST /v1/webhooks/test fails',
      `answered ${sent.status}: ${sent.text.slice(0, 200)}`,
      sent.exchange,
    );
    const deliveries = await subject.endpoint.waitFor((d) => eventsOf(d, 'test').length > 0, ctx.options.webhookWaitMs);
    const test = eventsOf(deliveries, 'test')[0];
    ctx.addCases();
    ctx.require(test !== undefined, 'WH-EVENT-TEST', 'Test event not delivered', `received ${describeDeliveries(deliveries)}`);
    const body = test.json as Record<string, unknown>;
    ctx.expectDelivery(
      !('data' in body) && typeof body.timestamp === 'string' && Object.keys(body).sort().join(',') === 'event,timestamp',
      'WH-PAYLOAD-TEST-NO-DATA',
      'Test event payload is not {event, timestamp}',
      `payload ${test.rawBody.slice(0, 200)}`,
      test,
      subject.secret,
    );
    await ctx.clock.refresh();
    verifyDeliveries(ctx, subject, [test], () => 'WH-SIGN-HMAC');
  },
});
