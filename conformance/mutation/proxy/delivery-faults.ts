// Faults the proxy puts into webhook deliveries on their way from a correct service to the suite's
// receiver: a body altered after signing, a missing event, a missing header, a retry that comes
// twice as two attempts.
import type { RelayedDelivery } from './fault-proxy.ts';
import type { ProxyFault } from './response-faults.ts';

const eventOf = (d: RelayedDelivery): string | undefined => (d.json as { event?: string } | undefined)?.event;

export const DELIVERY_FAULTS: ProxyFault[] = [
  {
    name: 'delivery-body-altered',
    class: 'delivery',
    level: 'documented',
    breaks: ['WH-SIGN-HMAC'],
    description: 'The payload is re-serialised with its timestamp changed after it was signed',
    delivery: (d, proxy) => {
      const json = d.json as { timestamp?: string } | undefined;
      if (!json?.timestamp) return proxy.forward(d);
      const body = JSON.stringify({ ...json, timestamp: new Date(Date.parse(json.timestamp) + 1).toISOString() });
      return proxy.forward({ ...d, body, json: JSON.parse(body) });
    },
  },
  {
    name: 'cancelled-event-dropped',
    class: 'delivery',
    level: 'documented',
    breaks: ['WH-EVENT-PAYMENT-CANCELLED'],
    description: 'payment.cancelled is never sent (the service records it as delivered)',
    delivery: async (d, proxy) => (eventOf(d) === 'payment.cancelled' ? 200 : proxy.forward(d)),
  },
  {
    name: 'completed-event-dropped',
    class: 'delivery',
    level: 'documented',
    breaks: ['WH-EVENT-PAYMENT-COMPLETED'],
    description: 'payment.completed is never sent',
    delivery: async (d, proxy) => (eventOf(d) === 'payment.completed' ? 200 : proxy.forward(d)),
  },
  {
    name: 'signature-header-dropped',
    class: 'delivery',
    level: 'documented',
    breaks: ['WH-HEADER-SIGNATURE'],
    description: 'Deliveries come without X-Service-Signature',
    delivery: (d, proxy) => {
      const { 'x-service-signature': _dropped, ...headers } = d.headers;
      return proxy.forward({ ...d, headers });
    },
  },
  {
    name: 'failed-attempt-sent-twice',
    class: 'delivery',
    level: 'documented',
    breaks: ['WH-RETRY-ATTEMPT-2', 'WH-RETRY-TOTAL-ATTEMPTS'],
    description: 'A failed attempt is repeated a second later as a new, re-signed attempt (an extra retry off the schedule)',
    delivery: async (d, proxy) => {
      const status = await proxy.forward(d);
      if (status >= 500) {
        proxy.later(1000, async () => {
          const t = Number(d.headers['x-service-timestamp']) + 1;
          const signature = proxy.sign(d.auth, t, d.body);
          if (signature)
            await proxy.forward({ ...d, headers: { ...d.headers, 'x-service-timestamp': String(t), 'x-service-signature': signature } });
        });
      }
      return status;
    },
  },
];
