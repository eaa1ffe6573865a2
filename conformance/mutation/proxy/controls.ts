// Negative controls: legal variations of a correct service's traffic the suite must accept, under
// --strict, with no failure and no warning. A failing control is a false positive of the suite.
import fc from 'fast-check';
import type { RelayedDelivery, ProxyApi, TrafficRewrite } from './fault-proxy.ts';
import { reverseKeys, type Json } from './rewrite-helpers.ts';
import { holdRetries } from './timing-faults.ts';

export interface ProxyControl extends TrafficRewrite {
  name: string;
  /** The variation, and why the spec allows it. */
  description: string;
}

const isJson = (headers: Record<string, string>): boolean => /^application\/json\b/i.test(headers['content-type'] ?? '');

/**
 * Deliveries are held for a short window and released in an order a fast-check scheduler picks
 * (seeded, so a failing order replays): webhook ordering is the race under test.
 */
function scheduledOrder(seed: number, windowMs: number): TrafficRewrite['delivery'] {
  const [scheduler] = fc.sample(fc.scheduler(), { seed, numRuns: 1 });
  let releasing: Promise<void> | null = null;
  return (delivery: RelayedDelivery, proxy: ProxyApi) => {
    const released = scheduler!
      .schedule(Promise.resolve(delivery), String((delivery.json as { event?: string })?.event))
      .then((d) => proxy.forward(d));
    if (!releasing) {
      releasing = new Promise<void>((resolve) => setTimeout(resolve, windowMs))
        .then(() => scheduler!.waitAll())
        .finally(() => (releasing = null));
    }
    return released;
  };
}

export const CONTROLS: ProxyControl[] = [
  {
    name: 'extra-headers',
    description: 'Responses and deliveries carry headers the contract does not list (Via, X-Request-Id): headers are open',
    response: (r) => Object.assign(r.headers, { via: '1.1 conformance-proxy', 'x-request-id': 'proxy-control' }),
    delivery: (d, proxy) =>
      proxy.forward({ ...d, headers: { ...d.headers, via: '1.1 conformance-proxy', 'x-request-id': 'proxy-control' } }),
  },
  {
    name: 'key-order-reversed',
    description: 'Every JSON object of every response has its keys in reverse order: JSON objects are unordered',
    response: (r) => void (r.json !== undefined && isJson(r.headers) && (r.json = reverseKeys(r.json))),
  },
  {
    name: 'pretty-printed-json',
    description: 'JSON responses are indented with whitespace and end with a newline: insignificant whitespace',
    response: (r) => {
      if (r.json !== undefined && isJson(r.headers)) {
        r.body = `${JSON.stringify(r.json, null, 2)}\n`;
        r.json = undefined;
      }
    },
  },
  {
    name: 'charset-parameter',
    description: 'JSON responses are labelled `application/json; charset=utf-8`: the parameter does not change the media type',
    response: (r) =>
      void (
        isJson(r.headers) &&
        !/charset/i.test(r.headers['content-type']!) &&
        (r.headers['content-type'] = `${r.headers['content-type']}; charset=utf-8`)
      ),
  },
  {
    name: 'duplicate-delivery',
    description: 'Every delivery attempt reaches the receiver twice, same body and t: "duplicate deliveries can occur" (spec §6)',
    delivery: async (d, proxy) => {
      const status = await proxy.forward(d);
      await proxy.forward(d);
      return status;
    },
  },
  {
    name: 'out-of-order-delivery',
    description: 'Deliveries close in time arrive in a scheduler-chosen order: the spec promises no order between events',
    delivery: scheduledOrder(20_260_115, 150),
  },
  {
    name: 'late-delivery',
    description: 'Every delivery reaches the receiver 1.5 s late (well inside the delivery time-out): a late but legal event',
    delivery: (d, proxy) => new Promise<number>((resolve) => proxy.later(1500, async () => resolve(await proxy.forward(d)))),
  },
  {
    name: 'documented-headers-only',
    description:
      "Deliveries carry only the documented headers: the simulator's own X-Simulator-Attempt-Timestamp is dropped, as a real implementation never sends it",
    delivery: (d, proxy) => {
      const { 'x-simulator-attempt-timestamp': _dropped, ...headers } = d.headers;
      return proxy.forward({ ...d, headers });
    },
  },
  {
    name: 'retry-late-within-tolerance',
    description:
      "Every retry reaches the receiver half a second after it fell due on the service's clock, headers claiming the due time: inside the retry check's ±2 s tolerance (the timing fault's control)",
    // Half a second, not more: the proxy adds its own latency (a clock read, a 100 ms poll, the relay), which a loaded
    // CI machine stretched past the tolerance when the hold was 1 s (the control failed there: a false positive of
    // the harness, not of the check).
    delivery: holdRetries(500),
  },
  {
    name: 'extra-field-open-shape',
    description: 'Error bodies carry an extra `traceId`: the spec does not close the error body, so extra fields are legal',
    response: (r) =>
      void (
        r.status >= 400 &&
        r.json &&
        typeof r.json === 'object' &&
        !Array.isArray(r.json) &&
        ((r.json as Json).traceId = 'proxy-control')
      ),
  },
];
