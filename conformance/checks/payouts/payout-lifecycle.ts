// Payouts: created through the control API's dashboard create (payout.created), driven through
// processing -> completed, processing -> failed, cancelled and expired; every event carries
// data.payoutId (not paymentId) and the payout's externalId (null when none); GET /v1/payouts/{id}
// gives the payout with the state the events announced; unknown or foreign ids are 404.
import { randomUUID } from 'node:crypto';
import type { Payout, PayoutEventPayload } from '@stablepay/contract/types';
import type { CheckContext } from '../../context.ts';
import type { HttpClient } from '../../http/client.ts';
import { defineCheck } from '../../registry.ts';
import { uniqueExternalId } from '../../support/payments.ts';
import type { Received } from '../../received.ts';
import type { Delivery } from '../../webhooks/receiver.ts';
import { SUBJECT_PREMISES, describeDeliveries, verifyDeliveries, webhookSubject } from '../webhooks/subject.ts';
import { distinctAttempts } from '../../webhooks/attempts.ts';

const PAYOUT_FIELDS = [
  'id',
  'status',
  'amount',
  'currency',
  'recipientAddress',
  'externalId',
  'chainId',
  'token',
  'exchangeRate',
  'amountToken',
  'txHash',
  'error',
  'expiresAt',
  'paidAt',
  'createdAt',
  'updatedAt',
];

const EVENT_REQUIREMENT: Record<string, string> = {
  'payout.created': 'WH-EVENT-PAYOUT-CREATED',
  'payout.processing': 'WH-EVENT-PAYOUT-PROCESSING',
  'payout.completed': 'WH-EVENT-PAYOUT-COMPLETED',
  'payout.failed': 'WH-EVENT-PAYOUT-FAILED',
  'payout.cancelled': 'WH-EVENT-PAYOUT-CANCELLED',
  'payout.expired': 'WH-EVENT-PAYOUT-EXPIRED',
};

function payoutEvents(deliveries: Delivery[], event: string, payoutId: string): Delivery[] {
  return deliveries.filter((d) => {
    const body = d.json as Received<PayoutEventPayload> | undefined;
    return body?.event === event && body.data?.payoutId === payoutId;
  });
}

export const payoutLifecycle = defineCheck({
  id: 'payouts.lifecycle',
  title: 'Payout events carry data.payoutId for every transition, and GET /v1/payouts/{id} shows the payout',
  requirements: [
    ...Object.values(EVENT_REQUIREMENT),
    'PAYOUT-GET-ENDPOINT',
    'WH-PAYLOAD-PAYOUT-ID',
    'WH-PAYLOAD-EVENT',
    'WH-SIGN-HMAC',
    'PAYOUT-404',
    'PAYOUT-RECORD-SHAPE',
    'PAYOUT-CREATED-VIA-CONTROL',
    'PAYOUT-LIFECYCLE-EVENTS',
    'WH-PAYLOAD-EXTERNAL-ID-NULL',
    'CTL-PAYOUT-CREATE',
    'CTL-PAYOUT-DRIVE',
  ],
  level: 'documented',
  needs: ['control', 'webhook-receiver'],
  tags: ['payouts', 'webhooks', 'clock'],
  resources: { exclusive: ['clock'] },
  premises: [...SUBJECT_PREMISES],
  async run(ctx: CheckContext) {
    const subject = await webhookSubject(ctx);
    const control = ctx.control.http;
    const owner = subject.api.options.credential;
    await ctx.clock.refresh();
    const create = async (externalId: string | null): Promise<Payout> => {
      const body = {
        amount: '25.00',
        currency: 'EUR',
        recipientAddress: '0x52908400098527886E0F7030069857D2E4169EE7',
        expiresAt: new Date(ctx.clock.now() + 20 * 60_000).toISOString(),
        ...(externalId ? { externalId } : {}),
      };
      const response = await control.post('/payouts', body, owner);
      ctx.requireStatus(response, 201, 'CTL-PAYOUT-CREATE', 'Setup: the control API does not create a payout');
      return response.json as Payout;
    };
    const drive = async (payout: Payout, action: string, body: unknown = {}) => {
      const response = await control.post(`/payouts/${payout.id}/${action}`, body, owner);
      ctx.requireStatus(response, 200, 'CTL-PAYOUT-DRIVE', `Setup: control payout ${action}`);
    };
    const paid = await create(uniqueExternalId('popaid'));
    const failed = await create(uniqueExternalId('pofail'));
    const cancelled = await create(null);
    const expired = await create(uniqueExternalId('poexp'));
    await drive(paid, 'submit', { chainId: 42161, token: 'USDT' });
    await drive(paid, 'confirm');
    await drive(failed, 'submit', { chainId: 8453, token: 'USDC' });
    await drive(failed, 'fail', { code: 'TRANSACTION_REVERTED', source: 'chain', message: 'conformance' });
    await drive(cancelled, 'cancel');
    // The control API created and drove every payout as asked.
    ctx.judged('CTL-PAYOUT-CREATE', 'CTL-PAYOUT-DRIVE');
    const before: [string, Payout][] = [
      ...[paid, failed, cancelled, expired].map((p) => ['payout.created', p] as [string, Payout]),
      ['payout.processing', paid],
      ['payout.completed', paid],
      ['payout.processing', failed],
      ['payout.failed', failed],
      ['payout.cancelled', cancelled],
    ];
    const early = await subject.endpoint.waitFor(
      (d) => before.every(([event, p]) => payoutEvents(d, event, p.id).length > 0),
      ctx.options.webhookWaitMs,
    );
    await ctx.clock.refresh();
    verifyDeliveries(ctx, subject, early, () => 'WH-SIGN-HMAC');
    await ctx.control.advance(21 * 60_000);
    await ctx.clock.refresh();
    const expected: [string, Payout][] = [...before, ['payout.expired', expired]];
    const deliveries = await subject.endpoint.waitFor(
      (d) => expected.every(([event, p]) => payoutEvents(d, event, p.id).length > 0),
      ctx.options.webhookWaitMs,
    );
    verifyDeliveries(ctx, subject, deliveries.slice(early.length), () => 'WH-SIGN-HMAC');
    for (const [event, payout] of expected) {
      ctx.addCases();
      const matching = payoutEvents(deliveries, event, payout.id);
      if (
        !ctx.expect(
          matching.length > 0,
          EVENT_REQUIREMENT[event]!,
          `${event} not delivered`,
          `no ${event} with data.payoutId ${payout.id}; received ${describeDeliveries(deliveries)}`,
        )
      )
        continue;
      const body = matching[0]!.json as Received<PayoutEventPayload>;
      ctx.expectDelivery(
        body.event === event,
        'WH-PAYLOAD-EVENT',
        `${event} payload names another event`,
        `event ${JSON.stringify(body.event)}`,
        matching[0]!,
      );
      ctx.expectDelivery(
        body.data !== undefined && !('paymentId' in body.data),
        'WH-PAYLOAD-PAYOUT-ID',
        `${event} carries data.paymentId`,
        `data ${JSON.stringify(body.data)}`,
        matching[0]!,
      );
      ctx.expectDelivery(
        body.data?.externalId === payout.externalId,
        payout.externalId === null ? 'WH-PAYLOAD-EXTERNAL-ID-NULL' : 'PAYOUT-LIFECYCLE-EVENTS',
        `${event} data.externalId is not the payout's`,
        `expected ${JSON.stringify(payout.externalId)}, got ${JSON.stringify(body.data?.externalId)}`,
        matching[0]!,
      );
      const headers = Object.fromEntries(
        Object.entries(matching[0]!.headers).map(([k, v]) => [k, Array.isArray(v) ? v.join(', ') : String(v)]),
      );
      for (const v of ctx.contract.validateWebhook(event, body, headers)) {
        ctx.failDelivery(
          'PAYOUT-LIFECYCLE-EVENTS',
          `${event} payload does not match the contract`,
          `${v.message}\npayload: ${matching[0]!.rawBody.slice(0, 300)}`,
          matching[0]!,
        );
      }
    }
    // Each expected pair arrives once here (a 2xx receiver): ours, since spec §6 allows duplicate deliveries.
    // Copies of one attempt (same body and t) are those legal duplicates, not a second delivery.
    if (expected.every(([event, payout]) => event !== 'payout.created' || payoutEvents(deliveries, event, payout.id).length > 0))
      ctx.judged('PAYOUT-CREATED-VIA-CONTROL');
    const pairs = distinctAttempts(deliveries)
      .map((d) => d.json as Received<PayoutEventPayload>)
      .filter((b) => b.event?.startsWith('payout.'))
      .map((b) => `${b.data?.payoutId}/${b.event}`);
    const repeated = pairs.filter((pair, i) => pairs.indexOf(pair) !== i);
    ctx.expect(
      repeated.length === 0,
      'PAYOUT-LIFECYCLE-EVENTS',
      'The same (payoutId, event) was delivered twice to a receiver that answered 2xx',
      `repeated ${repeated.join(', ')}`,
    );

    const states: [Payout, string][] = [
      [paid, 'SUCCESSFUL'],
      [failed, 'FAILED'],
      [cancelled, 'CANCELLED'],
      [expired, 'EXPIRED'],
    ];
    for (const [payout, status] of states) {
      const got = await subject.api.get(`/v1/payouts/${payout.id}`);
      ctx.addCases();
      if (
        !ctx.expect(
          got.status === 200,
          'PAYOUT-GET-ENDPOINT',
          'GET /v1/payouts/{id} does not give the payout',
          `answered ${got.status}: ${got.text.slice(0, 200)}`,
          got.exchange,
        )
      )
        continue;
      const record = got.json as Record<string, unknown>;
      ctx.expect(
        record.id === payout.id && record.status === status,
        'PAYOUT-LIFECYCLE-EVENTS',
        'The payout state does not follow its events',
        `payout ${payout.id}: expected ${status}, got ${JSON.stringify(record.status)}`,
        got.exchange,
      );
      const keys = Object.keys(record).sort();
      ctx.expect(
        keys.join(',') === [...PAYOUT_FIELDS].sort().join(','),
        'PAYOUT-RECORD-SHAPE',
        'The payout record does not have the documented fields',
        `fields ${keys.join(', ')}`,
        got.exchange,
      );
    }
    await expectNotFound(ctx, subject.api, randomUUID(), 'an unknown payout');
    const { api: stranger } = await ctx.newMerchant('payout stranger');
    await expectNotFound(ctx, stranger, paid.id, "another merchant's payout");
  },
});

async function expectNotFound(ctx: CheckContext, api: HttpClient, id: string, what: string): Promise<void> {
  const response = await api.get(`/v1/payouts/${id}`);
  ctx.addCases();
  ctx.expect(
    response.status === 404,
    'PAYOUT-404',
    `GET of ${what} is not 404`,
    `answered ${response.status}: ${response.text.slice(0, 200)}`,
    response.exchange,
  );
}
