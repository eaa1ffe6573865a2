// holdRetries: a delivery's first attempt passes at once; a retry (same body) waits for the service's clock, not the
// wall clock, to reach the lateness, and passes unchanged (headers still claiming the due time).
import { describe, expect, it } from 'vitest';
import type { ProxyApi, RelayedDelivery } from './fault-proxy.ts';
import { holdRetries } from './timing-faults.ts';

function fakeProxy() {
  const clock = { now: 1_000_000 };
  const forwarded: { delivery: RelayedDelivery; at: number }[] = [];
  const proxy: ProxyApi = {
    forward: async (delivery) => {
      forwarded.push({ delivery, at: clock.now });
      return 500;
    },
    sign: () => null,
    endpointOf: () => undefined,
    later: (ms, task) => void setTimeout(() => void task(), ms),
    targetNow: async () => clock.now,
  };
  return { clock, forwarded, proxy };
}

const attempt = (body: string, t: string): RelayedDelivery => ({
  url: 'http://127.0.0.1:1/hook',
  auth: 'Bearer pk_test',
  headers: { 'x-service-timestamp': t, 'x-service-signature': `t=${t},v1=00` },
  body,
  json: JSON.parse(body),
});

const tick = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('holdRetries', () => {
  it("relays first attempts at once and holds a retry until the service's clock is past the lateness", async () => {
    const { clock, forwarded, proxy } = fakeProxy();
    const hold = holdRetries(60_000);
    const body = '{"event":"payment.cancelled","data":{"paymentId":"p-1"}}';
    expect(await hold(attempt(body, '1000'), proxy)).toBe(500);
    expect(await hold(attempt('{"event":"payment.expired","data":{"paymentId":"p-2"}}', '1000'), proxy)).toBe(500);
    expect(forwarded).toHaveLength(2);

    clock.now += 60_000;
    const retry = attempt(body, '1060');
    const held = hold(retry, proxy);
    // Wall time passes, the service's clock does not: the retry stays held.
    await tick(350);
    clock.now += 59_000;
    await tick(350);
    expect(forwarded).toHaveLength(2);
    clock.now += 1_000;
    expect(await held).toBe(500);
    expect(forwarded).toHaveLength(3);
    // Relayed as the service sent it: the headers still claim the instant it fell due.
    expect(forwarded[2]!.delivery).toBe(retry);
    expect(forwarded[2]!.at - (1_000_000 + 60_000)).toBe(60_000);
  });
});
