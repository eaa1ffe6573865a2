// Faults the proxy puts into responses of a correct service. Each breaks the requirements in
// `breaks`; the classes follow the suite's weaknesses they probe (issue 15): invariants after a
// later step, oracles looser than the rule, flags whose meaning is unchecked, identities, plus
// plain contract faults (status, headers, body shape).
import { currency } from '../../facts/fixtures.ts';
import type { ProxiedResponse, ProxyApi, TrafficRewrite } from './fault-proxy.ts';
import { isList, paymentsIn, ReadCounter, retrieveViews, shiftDecimal, shiftInstant, type Json } from './rewrite-helpers.ts';

export type FaultClass = 'invariant' | 'oracle' | 'flag' | 'absence' | 'identity' | 'contract' | 'delivery' | 'page' | 'timing';

export interface ProxyFault extends TrafficRewrite {
  name: string;
  class: FaultClass;
  description: string;
  breaks: string[];
  level: 'documented' | 'assumed';
  /** Needs the slow checks (none of the proxy faults do). */
  slow?: boolean;
  /** Runs every check: the fault shows only on payments other checks make (the run-level history checks catch it). */
  wholeRun?: boolean;
}

const initiated = (p: Json): boolean => p.status !== 'ACTIVE' && p.chainId !== null && p.chainId !== undefined;

function minorOf(p: Json): number | null {
  try {
    return currency(String(p.currency)).minorUnits;
  } catch {
    return null;
  }
}

/** 0.5 % of the amount in minor units ×1000 (exact when divisible by 1000). */
function feeTimes1000(p: Json): bigint | null {
  const minor = minorOf(p);
  if (minor === null || typeof p.amount !== 'string') return null;
  const [whole, fraction = ''] = p.amount.split('.');
  return BigInt(`${whole}${fraction.padEnd(minor, '0')}`) * 5n;
}

function statefulFault(
  fault: Omit<ProxyFault, 'response'> & { edit: (p: Json, n: number) => void; pick: (r: ProxiedResponse) => Json[] },
): ProxyFault {
  const reads = new ReadCounter();
  const { edit, pick, ...rest } = fault;
  return { ...rest, response: (r) => pick(r).forEach((p) => edit(p, reads.next(String(p.id)))) };
}

export const RESPONSE_FAULTS: ProxyFault[] = [
  // Invariants that only a later observation reveals.
  {
    name: 'accepted-chains-narrowed-after-payment',
    class: 'invariant',
    level: 'documented',
    breaks: ['PAY-ACCEPTED-STORED-AS-REQUESTED'],
    description: 'Once the customer has paid on a chain, acceptedChains shows only that chain',
    response: (r) =>
      retrieveViews(r)
        .filter(initiated)
        .forEach((p) => (p.acceptedChains = [p.chainId])),
  },
  {
    name: 'updated-at-frozen',
    class: 'invariant',
    level: 'documented',
    breaks: ['PAY-FIELD-UPDATED-AT'],
    description: 'updatedAt never moves: it stays the creation time through every transition',
    response: (r) => retrieveViews(r).forEach((p) => (p.updatedAt = p.createdAt)),
  },
  statefulFault({
    name: 'updated-at-moves-on-read',
    class: 'invariant',
    level: 'documented',
    breaks: ['PAY-FIELD-UPDATED-AT'],
    description: 'Every read bumps updatedAt by a second although nothing changed',
    pick: retrieveViews,
    edit: (p, n) => (p.updatedAt = shiftInstant(p.updatedAt, n * 1000)),
  }),
  statefulFault({
    name: 'exchange-rate-not-locked',
    class: 'invariant',
    level: 'documented',
    breaks: ['PAY-FIELD-EXCHANGE-RATE'],
    description: 'The exchange rate drifts on every read after initiation instead of staying locked',
    pick: (r) => retrieveViews(r).filter(initiated),
    edit: (p, n) => (p.exchangeRate = shiftDecimal(p.exchangeRate, BigInt(n))),
  }),
  statefulFault({
    name: 'terminal-gas-actual-rewritten',
    class: 'invariant',
    level: 'documented',
    breaks: ['PAY-FIELD-GAS-ACTUAL', 'PAY-STATE-TERMINAL-FINAL'],
    description: "A SUCCESSFUL payment's gasActual (and updatedAt with it) changes on every read",
    pick: (r) => retrieveViews(r).filter((p) => p.status === 'SUCCESSFUL'),
    edit: (p, n) => {
      p.gasActual = shiftDecimal(p.gasActual, BigInt(n));
      p.updatedAt = shiftInstant(p.updatedAt, n * 1000);
    },
  }),
  {
    name: 'expires-at-extended-after-create',
    class: 'invariant',
    level: 'documented',
    breaks: ['PAY-FIELD-EXPIRES-AT'],
    description: 'The retrieve view reports expiresAt one hour later than the create response did',
    response: (r) => retrieveViews(r).forEach((p) => (p.expiresAt = shiftInstant(p.expiresAt, 3600_000))),
  },
  // Oracles: exact fee.
  {
    name: 'service-fee-off-when-exact',
    class: 'oracle',
    level: 'documented',
    breaks: ['PAY-FEE-SERVICE-RATE'],
    description: 'When 0.5 % is exact in minor units the fee is one unit higher (merchantFee one lower: the parts still add up)',
    response: (r) =>
      paymentsIn(r)
        .filter((p) => p.sellers === null || (Array.isArray(p.sellers) && p.sellers.length === 0))
        .forEach((p) => {
          const fee = feeTimes1000(p);
          if (fee === null || fee % 1000n !== 0n || fee === 0n) return;
          p.serviceFee = shiftDecimal(p.serviceFee, 1n);
          p.merchantFee = shiftDecimal(p.merchantFee, -1n);
        }),
  },
  {
    name: 'service-fee-rounded-down',
    class: 'oracle',
    level: 'assumed',
    breaks: ['PAY-FEE-ROUND-HALF-UP'],
    description: 'The fee is truncated where half-up rounds up (still floor or ceiling of the exact value)',
    response: (r) =>
      paymentsIn(r)
        .filter((p) => p.sellers === null || (Array.isArray(p.sellers) && p.sellers.length === 0))
        .forEach((p) => {
          const fee = feeTimes1000(p);
          if (fee === null || fee % 1000n < 500n) return;
          p.serviceFee = shiftDecimal(p.serviceFee, -1n);
          p.merchantFee = shiftDecimal(p.merchantFee, 1n);
        }),
  },
  // Flags whose meaning is checked.
  {
    name: 'last-page-says-has-more',
    class: 'flag',
    level: 'documented',
    breaks: ['LIST-ENVELOPE-FIELDS'],
    description: 'The last non-empty page says hasMore true with a cursor; the page after it is empty',
    response: (r) => {
      const body = r.json as Json;
      const data = body?.data as Json[] | undefined;
      if (!isList(r) || body.hasMore !== false || !data?.length) return;
      body.hasMore = true;
      body.nextCursor = data.at(-1)!.id;
    },
  },
  {
    name: 'cursor-on-last-page',
    class: 'flag',
    level: 'assumed',
    breaks: ['LIST-NEXT-CURSOR-LAST-ID'],
    description: 'The last page carries a nextCursor although hasMore is false',
    response: (r) => {
      const body = r.json as Json;
      const data = body?.data as Json[] | undefined;
      if (isList(r) && body.hasMore === false && data?.length) body.nextCursor = data.at(-1)!.id;
    },
  },
  {
    name: 'first-page-says-no-more',
    class: 'flag',
    level: 'documented',
    breaks: ['LIST-ENVELOPE-FIELDS', 'LIST-CURSOR-PAGINATED'],
    description: 'The first page says hasMore false (nextCursor null) while more items exist',
    response: (r) => {
      const body = r.json as Json;
      if (isList(r) && !r.query.has('cursor') && body.hasMore === true) {
        body.hasMore = false;
        body.nextCursor = null;
      }
    },
  },
  // Token-amount identities (assumed).
  {
    name: 'amount-token-rounded-down',
    class: 'identity',
    level: 'assumed',
    breaks: ['PAY-TOKEN-AMOUNT-CEIL'],
    // Black-box, only the customer's payments are ever initiated: the checks citing the rule have none of their own.
    wholeRun: true,
    description: 'amountToken (and merchantFeeToken with it) is one micro unit short of ceil6(amount × rate)',
    response: (r) =>
      retrieveViews(r)
        .filter(initiated)
        .forEach((p) => {
          p.amountToken = shiftDecimal(p.amountToken, -1n, 6);
          p.merchantFeeToken = shiftDecimal(p.merchantFeeToken, -1n, 6);
        }),
  },
  {
    name: 'merchant-fee-token-not-remainder',
    class: 'identity',
    level: 'assumed',
    breaks: ['PAY-MERCHANT-FEE-TOKEN-REMAINDER'],
    description: 'merchantFeeToken is one micro unit more than amountToken − serviceFeeToken',
    response: (r) =>
      retrieveViews(r)
        .filter(initiated)
        .forEach((p) => (p.merchantFeeToken = shiftDecimal(p.merchantFeeToken, 1n, 6))),
  },
  // Absence over the whole run: a late payment.created for an API create.
  {
    name: 'late-payment-created',
    class: 'absence',
    level: 'documented',
    breaks: ['PAY-STATE-CREATE-NO-CREATED-EVENT'],
    description: 'payment.created is sent for API creates, 2.5 s after the create (past any short watch window)',
    response: (r: ProxiedResponse, proxy: ProxyApi) => {
      if (r.method !== 'POST' || r.path !== '/v1/payments' || r.status !== 201) return;
      const p = r.json as Json;
      const url = proxy.endpointOf(r.auth);
      if (!url) return;
      proxy.later(2500, async () => {
        const t = Math.floor(Date.now() / 1000);
        const body = JSON.stringify({
          event: 'payment.created',
          timestamp: new Date().toISOString(),
          data: { paymentId: p.id, externalId: p.externalId ?? null, status: 'ACTIVE', amount: p.amount, currency: p.currency },
        });
        const signature = proxy.sign(r.auth, t, body);
        if (!signature) return;
        await proxy.forward({
          url,
          auth: r.auth,
          body,
          json: JSON.parse(body),
          headers: {
            'content-type': 'application/json',
            'x-service-signature': signature,
            'x-service-timestamp': String(t),
            'user-agent': 'stablepay-simulator/1.0.0',
          },
        });
      });
    },
  },
  // Contract faults.
  {
    name: 'create-answers-200',
    class: 'contract',
    level: 'documented',
    breaks: ['PAY-CREATE-RESPONSE-201'],
    description: 'A successful create answers 200 instead of 201',
    response: (r) => void (r.method === 'POST' && r.path === '/v1/payments' && r.status === 201 && (r.status = 200)),
  },
  {
    name: 'create-view-extra-field',
    class: 'contract',
    level: 'documented',
    breaks: ['PAY-CREATE-VIEW-FIELDS'],
    description: 'The create response also carries updatedAt (the spec says it carries only its 14 fields)',
    response: (r) => {
      if (r.method === 'POST' && r.path === '/v1/payments' && r.status === 201) (r.json as Json).updatedAt = (r.json as Json).createdAt;
    },
  },
  {
    name: 'rate-limit-remaining-dropped',
    class: 'contract',
    level: 'assumed',
    breaks: ['RL-HEADERS-EVERY-RESPONSE'],
    description: 'GET responses lack X-RateLimit-Remaining',
    response: (r) => void (r.method === 'GET' && r.path.startsWith('/v1/') && delete r.headers['x-ratelimit-remaining']),
  },
  {
    name: 'unknown-payment-400',
    class: 'contract',
    level: 'documented',
    breaks: ['ERR-404-PAYMENT-NOT-FOUND'],
    description: 'An unknown payment id answers 400 instead of 404',
    response: (r) => {
      if (/^\/v1\/payments\/[^/]+$/.test(r.path) && r.status === 404) {
        r.status = 400;
        r.json = { statusCode: 400, message: 'Bad Request', error: 'Bad Request' };
      }
    },
  },
  {
    name: 'error-body-without-message',
    class: 'contract',
    level: 'documented',
    breaks: ['ERR-BODY-SHAPE'],
    description: '400 bodies lack `message`',
    response: (r) => void (r.status === 400 && r.json && typeof r.json === 'object' && delete (r.json as Json).message),
  },
  {
    name: 'amount-as-json-number',
    class: 'contract',
    level: 'documented',
    breaks: ['FMT-AMOUNT-DECIMAL-STRING'],
    description: 'The retrieve view gives amount as a JSON number',
    response: (r) => retrieveViews(r).forEach((p) => (p.amount = Number(p.amount))),
  },
  {
    name: 'created-at-without-millis',
    class: 'contract',
    level: 'documented',
    breaks: ['FMT-TIMESTAMP-ISO8601-UTC'],
    description: 'createdAt in the retrieve view has no milliseconds',
    response: (r) => retrieveViews(r).forEach((p) => (p.createdAt = String(p.createdAt).replace(/\.\d{3}Z$/, 'Z'))),
  },
];
