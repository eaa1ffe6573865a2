// Listener sessions in the webhook service: each listener of the event's merchant gets the event, signed with its own
// secret, whether or not the merchant has an endpoint; a listener whose key no longer authenticates as the merchant
// gets nothing; a removed listener's pending retry is dropped, not sent unsigned or elsewhere.
import { afterEach, describe, expect, it } from 'vitest';
import { VirtualClock } from '../clock/virtual-clock.ts';
import type { FetchLike } from './http-post.ts';
import { ListenerRegistry, listenerTargets } from './listener-registry.ts';
import { createWebhookService, type WebhookService } from './service.ts';
import { signPayload } from './sign.ts';

const START = Date.parse('2026-11-21T10:00:00.000Z');
const secret = (digit: string) => `whsec_${digit.repeat(64)}`;

interface Sent {
  url: string;
  headers: Record<string, string>;
  body: string;
}

let service: WebhookService | undefined;
let clock: VirtualClock | undefined;
afterEach(async () => {
  await service?.close();
  clock?.dispose();
});

function setup(answer: (url: string) => number) {
  const sent: Sent[] = [];
  const fetch = (async (url: string, init: { headers: Record<string, string>; body: string }) => {
    sent.push({ url, headers: Object.fromEntries(Object.entries(init.headers).map(([k, v]) => [k.toLowerCase(), v])), body: init.body });
    return new Response('', { status: answer(url) });
  }) as unknown as FetchLike;
  clock = new VirtualClock({ wallNow: () => START });
  const registry = new ListenerRegistry();
  // key-a and key-b authenticate as m1, key-c as m2; key-gone as no one (revoked, or lost in a reset).
  const merchants: Record<string, string> = { 'key-a': 'm1', 'key-b': 'm1', 'key-c': 'm2' };
  service = createWebhookService({ clock, fetch, listeners: listenerTargets(registry, (hash) => merchants[hash]) });
  return { sent, registry, service };
}

describe('listener fan-out', () => {
  it("sends each of the merchant's listeners the event, signed with its own secret, without an endpoint", async () => {
    const { sent, registry, service } = setup(() => 204);
    const at = clock!.nowIso();
    registry.add({ keyHash: 'key-a', url: 'http://a.test/', secret: secret('a'), events: null }, at);
    registry.add({ keyHash: 'key-b', url: 'http://b.test/', secret: secret('b'), events: ['payment.completed'] }, at);
    registry.add({ keyHash: 'key-b', url: 'http://b2.test/', secret: secret('b'), events: ['payment.failed'] }, at);
    registry.add({ keyHash: 'key-c', url: 'http://c.test/', secret: secret('c'), events: null }, at);
    registry.add({ keyHash: 'key-gone', url: 'http://gone.test/', secret: secret('d'), events: null }, at);
    service.emit('m1', { type: 'payment.completed', paymentId: '5b0f1a8e-7c2d-4e3f-9a1b-2c3d4e5f6a7b', externalId: null });
    await service.idle();
    expect(sent.map((s) => s.url).sort()).toEqual(['http://a.test/', 'http://b.test/']);
    for (const s of sent) {
      const own = s.url === 'http://a.test/' ? secret('a') : secret('b');
      const other = s.url === 'http://a.test/' ? secret('b') : secret('a');
      const verify = (key: string) =>
        s.headers['x-service-signature'] ===
        `t=${s.headers['x-service-timestamp']},v1=${signPayload(key, s.headers['x-service-timestamp']!, s.body)}`;
      expect([verify(own), verify(other)]).toEqual([true, false]);
    }
    expect(sent[0]!.body).toBe(sent[1]!.body);
    // The merchant's own delivery log holds none of them (and there is no endpoint to deliver to).
    expect(service.deliveries('m1')).toEqual([]);
  });

  it("drops a removed listener's pending retry and keeps retrying for the others", async () => {
    const { sent, registry, service } = setup(() => 503);
    const at = clock!.nowIso();
    const stopped = registry.add({ keyHash: 'key-a', url: 'http://a.test/', secret: secret('a'), events: null }, at);
    registry.add({ keyHash: 'key-b', url: 'http://b.test/', secret: secret('b'), events: null }, at);
    service.emit('m1', { type: 'test' });
    await service.idle();
    expect(sent).toHaveLength(2);
    registry.remove(stopped.id);
    await clock!.advance(61_000);
    await service.idle();
    expect(sent.map((s) => s.url)).toEqual(['http://a.test/', 'http://b.test/', 'http://b.test/'].sort());
    expect(clock!.pendingTimers()).toBe(1);
  });
});
