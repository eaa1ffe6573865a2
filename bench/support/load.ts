// One autocannon run: POST /v1/payments with the same valid body to any server, a distinct externalId per
// request so every create is a real insert (never a 409).
import autocannon from 'autocannon';

export const API_KEY = 'pk_bench000000000000000000000000000000000000000000000';

export interface LoadResult {
  requests: number;
  rps: number;
  p50: number;
  p99: number;
  non2xx: number;
  errors: number;
}

let sequence = 0;

export function createBody(): string {
  sequence += 1;
  return JSON.stringify({ amount: '100.50', currency: 'USD', title: 'bench', externalId: `bench-${process.pid}-${sequence}` });
}

export async function load(baseUrl: string, connections: number, durationSeconds: number): Promise<LoadResult> {
  const result = await autocannon({
    url: `${baseUrl}/v1/payments`,
    method: 'POST',
    connections,
    duration: durationSeconds,
    headers: { authorization: `Bearer ${API_KEY}`, 'content-type': 'application/json' },
    requests: [{ setupRequest: (request) => ({ ...request, body: createBody() }) }],
  });
  return {
    requests: result.requests.total,
    rps: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    non2xx: result.non2xx,
    errors: result.errors,
  };
}
