// Timing trusted to the implementation (issue 25, class 7): retries of a correct service held back by the proxy on the
// service's own clock, so they arrive late while everything the delivery says about itself (X-Service-Timestamp, the
// signature over it, any attempt-time header) still claims the due time. Only timing by arrival catches it. The
// matching control holds retries by less than the retry check's tolerance and must pass.
import type { ProxyApi, RelayedDelivery, TrafficRewrite } from './fault-proxy.ts';
import { RETRY_OFFSETS_S } from '../../webhooks/retry-timing.ts';
import type { ProxyFault } from './response-faults.ts';

/** How often a held attempt looks at the service's clock: a jump of the clock releases it within this much wall time. */
const POLL_MS = 100;

/**
 * Relays a delivery's first attempt at once and holds every later attempt of it (a retry: the same body, spec §6)
 * until the service's clock reads `lateMs` past the moment the attempt left, then relays it unchanged.
 */
export function holdRetries(lateMs: number): NonNullable<TrafficRewrite['delivery']> {
  const attempted = new Set<string>();
  return async (delivery: RelayedDelivery, proxy: ProxyApi) => {
    if (!attempted.has(delivery.body)) {
      attempted.add(delivery.body);
      return proxy.forward(delivery);
    }
    const due = (await proxy.targetNow(delivery.auth).catch(() => Date.now())) + lateMs;
    await new Promise<void>((release) => {
      const look = (): void =>
        proxy.later(POLL_MS, async (): Promise<void> => {
          const now = await proxy.targetNow(delivery.auth).catch(() => Number.NEGATIVE_INFINITY);
          if (now >= due) release();
          else look();
        });
      look();
    });
    return proxy.forward(delivery);
  };
}

/** Every retry's requirement (attempts 2 to 7 of spec §6's table). */
const RETRY_ATTEMPTS = RETRY_OFFSETS_S.slice(1).map((_, i) => `WH-RETRY-ATTEMPT-${i + 2}`);

export const TIMING_FAULTS: ProxyFault[] = [
  {
    name: 'retry-late-headers-on-time',
    class: 'timing',
    level: 'documented',
    breaks: RETRY_ATTEMPTS,
    description:
      "Every retry reaches the receiver a minute after it fell due on the service's clock; its X-Service-Timestamp and signature still claim the due time",
    delivery: holdRetries(60_000),
  },
];
