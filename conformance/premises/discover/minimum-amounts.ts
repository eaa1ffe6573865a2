// The per-currency minimum (spec §8: "Per-currency minimum amounts: not shown") found at its boundary: the smallest
// amount POST /v1/payments accepts, with one minor unit less refused. The candidate (declared, else the simulator's)
// is tried first, so a matching implementation costs three requests per currency (accepted, cancelled, the one below
// refused); otherwise the amount grows tenfold until accepted, then bisects. Accepted probes are cancelled at once.
import type { HttpClient } from '../../http/client.ts';
import { formatUnits, toUnits } from '../../facts/decimal.ts';
import { AMOUNT_MAXIMUM, CURRENCIES } from '../../facts/fixtures.ts';
import type { Discoverer, PremiseEvidence } from '../book.ts';
import { refusedBy } from './evidence.ts';

type Probe = 'accepted' | 'refused' | 'inconclusive';

interface CurrencyBoundary {
  minimum: string | null;
  requests: number;
  /** Set when an answer was neither 2xx nor 4xx. */
  problem?: string;
}

async function probe(
  api: HttpClient,
  code: string,
  units: bigint,
  minorUnits: number,
  count: () => void,
): Promise<{ outcome: Probe; detail: string }> {
  const amount = formatUnits(units, minorUnits);
  const response = await api.post('/v1/payments', { amount, currency: code, title: 'conformance minimum-amount probe' });
  count();
  if (response.status >= 200 && response.status < 300) {
    const id = (response.json as { id?: unknown } | undefined)?.id;
    if (typeof id === 'string') {
      await api.delete(`/v1/payments/${id}`);
      count();
    }
    return { outcome: 'accepted', detail: amount };
  }
  if (refusedBy(response.status) && response.status !== 429) return { outcome: 'refused', detail: amount };
  return { outcome: 'inconclusive', detail: `${amount} answered ${response.status}` };
}

export async function boundaryOf(api: HttpClient, code: string, minorUnits: number, candidate: string): Promise<CurrencyBoundary> {
  let requests = 0;
  const count = () => void requests++;
  const maximum = toUnits(AMOUNT_MAXIMUM, minorUnits);
  const at = async (units: bigint) => probe(api, code, units, minorUnits, count);
  const start = toUnits(candidate, minorUnits) > 0n ? toUnits(candidate, minorUnits) : 1n;
  let refused = 0n;
  let accepted = 0n;
  const first = await at(start);
  if (first.outcome === 'inconclusive') return { minimum: null, requests, problem: first.detail };
  if (first.outcome === 'accepted') accepted = start;
  else {
    refused = start;
    for (let units = start * 10n; accepted === 0n; units *= 10n) {
      const tried = units > maximum ? maximum : units;
      const next = await at(tried);
      if (next.outcome === 'inconclusive') return { minimum: null, requests, problem: next.detail };
      if (next.outcome === 'accepted') accepted = tried;
      else if (tried >= maximum) return { minimum: null, requests };
      else refused = tried;
    }
  }
  // Invariant: `refused` is refused (0 counts as refused), `accepted` accepted; close the gap. Next to the candidate
  // first: one minor unit below it settles a matching implementation at once.
  while (accepted - refused > 1n) {
    const middle: bigint = accepted === start && refused === 0n ? start - 1n : (refused + accepted) / 2n;
    const next = await at(middle);
    if (next.outcome === 'inconclusive') return { minimum: null, requests, problem: next.detail };
    if (next.outcome === 'accepted') accepted = middle;
    else refused = middle;
  }
  return { minimum: formatUnits(accepted, minorUnits), requests };
}

export const discoverMinimumAmounts: Discoverer<'payments.minimum-amounts'> = async (env, candidate) => {
  const found: Record<string, string | null> = {};
  const lines: string[] = [];
  const problems: string[] = [];
  let requests = 0;
  for (const { code, minorUnits, minimum } of CURRENCIES) {
    const boundary = await boundaryOf(env.api, code, minorUnits, candidate[code] ?? minimum);
    requests += boundary.requests;
    if (boundary.problem) problems.push(`${code}: ${boundary.problem}`);
    found[code] = boundary.minimum;
    lines.push(`${code} ${boundary.minimum ?? (boundary.problem ? '?' : 'none accepted')}`);
  }
  const evidence: PremiseEvidence[] = [
    {
      sent: `POST /v1/payments {amount, currency} at each currency's boundary (${requests} requests, accepted probes cancelled)`,
      seen: `smallest accepted: ${lines.join(', ')}`,
    },
  ];
  if (problems.length > 0)
    return {
      kind: 'inconclusive',
      evidence: [...evidence, { sent: 'the same probes', seen: `answers that are neither 2xx nor 4xx: ${problems.join('; ')}` }],
    };
  return { kind: 'discovered', value: found, evidence };
};
