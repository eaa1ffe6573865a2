// Faults only a payment's whole history shows (issue 25): a field fixed at creation that changes once the payment is
// paid, timestamps out of order, updatedAt that never moves, and signed events for transitions the payment never made.
// Each shows on payments of any check, so each runs the whole suite (wholeRun) and the run-level checks of
// checks/history/ catch it.
import type { RelayedDelivery } from './fault-proxy.ts';
import type { ProxyFault } from './response-faults.ts';
import { retrieveViews, shiftInstant, type Json } from './rewrite-helpers.ts';

const ALL_CHAINS = [1, 42161, 8453, 137, 56];
const eventOf = (d: RelayedDelivery): { event?: string; data?: { paymentId?: string } } | undefined =>
  d.json as { event?: string; data?: { paymentId?: string } } | undefined;

/** Relays the delivery, then sends the same payload as `event`, freshly signed, a little later. */
export function alsoSend(event: string, after: string): ProxyFault['delivery'] {
  return async (d, proxy) => {
    const status = await proxy.forward(d);
    const json = eventOf(d);
    if (json?.event === after) {
      proxy.later(300, async () => {
        const body = JSON.stringify({ ...json, event, timestamp: new Date().toISOString() });
        const t = Math.floor(Date.now() / 1000);
        const signature = proxy.sign(d.auth, t, body);
        if (signature)
          await proxy.forward({
            ...d,
            body,
            json: JSON.parse(body),
            headers: { ...d.headers, 'x-service-timestamp': String(t), 'x-service-signature': signature },
          });
      });
    }
    return status;
  };
}

export const HISTORY_FAULTS: ProxyFault[] = [
  {
    name: 'accepted-chains-widened-after-payment',
    class: 'invariant',
    level: 'documented',
    breaks: ['PAY-ACCEPTED-STORED-AS-REQUESTED'],
    wholeRun: true,
    description: 'Once a payment is initiated, its retrieve view lists every chain in acceptedChains, whatever was requested',
    response: (r) => {
      for (const p of retrieveViews(r)) if (p.status !== 'ACTIVE' && Array.isArray(p.acceptedChains)) p.acceptedChains = ALL_CHAINS;
    },
  },
  {
    name: 'paid-at-before-created',
    class: 'invariant',
    level: 'documented',
    breaks: ['PAY-FIELD-PAID-AT'],
    wholeRun: true,
    description: 'paidAt of a SUCCESSFUL payment is one hour before its createdAt',
    response: (r) => {
      for (const p of retrieveViews(r))
        if (p.status === 'SUCCESSFUL' && typeof p.createdAt === 'string') p.paidAt = shiftInstant(p.createdAt, -3_600_000);
    },
  },
  {
    name: 'updated-at-never-moves',
    class: 'invariant',
    level: 'documented',
    breaks: ['PAY-FIELD-UPDATED-AT'],
    wholeRun: true,
    description: 'updatedAt stays at createdAt whatever happens to the payment',
    response: (r) => {
      for (const p of retrieveViews(r) as Json[]) if (typeof p.createdAt === 'string') p.updatedAt = p.createdAt;
    },
  },
  {
    name: 'cancelled-event-after-completed',
    class: 'delivery',
    level: 'documented',
    breaks: ['WH-EVENT-PAYMENT-CANCELLED'],
    wholeRun: true,
    description: 'A signed payment.cancelled follows every payment.completed (the payment was never cancelled)',
    delivery: alsoSend('payment.cancelled', 'payment.completed'),
  },
  {
    name: 'expired-event-after-cancel',
    class: 'delivery',
    level: 'documented',
    breaks: ['WH-EVENT-PAYMENT-EXPIRED'],
    wholeRun: true,
    description: 'A signed payment.expired follows every payment.cancelled (the payment stays CANCELLED)',
    delivery: alsoSend('payment.expired', 'payment.cancelled'),
  },
  {
    name: 'completed-event-sent-again',
    class: 'delivery',
    level: 'assumed',
    breaks: ['WH-DELIVERY-ONCE-PER-EVENT'],
    wholeRun: true,
    description: 'Every acknowledged payment.completed is sent again, re-signed with a fresh timestamp (an unbounded duplicate: warns)',
    delivery: alsoSend('payment.completed', 'payment.completed'),
  },
];
