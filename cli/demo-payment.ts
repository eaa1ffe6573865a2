// The payment whose page `stablepay start` prints: one a newcomer can open and pay straight away, created through
// the public API like any other. The request goes to the app in process (same routes, auth, rate limit and
// validation as over the port): the first request over the socket cost start-up a client and a connection.
import type { RunningServer } from '@stablepay/simulator/server';

export async function createDemoPayment(server: RunningServer): Promise<string> {
  const res = await server.simulator.app.request(`${server.url}/v1/payments`, {
    method: 'POST',
    headers: { authorization: `Bearer ${server.simulator.defaultApiKey}`, 'content-type': 'application/json' },
    body: JSON.stringify({ amount: '25.00', currency: 'USD', title: 'Demo order', externalId: `demo-${Date.now()}` }),
  });
  const body = (await res.json()) as { paymentUrl?: string; message?: string };
  if (res.status !== 201 || !body.paymentUrl) throw new Error(`could not create the demo payment: ${res.status} ${body.message ?? ''}`);
  return body.paymentUrl;
}
