// How many deliveries of a full conformance run a receiver that follows the spec accepts: a
// two-sided ±300 s check against its own wall clock (ours, conformance/webhooks/signature.ts) and
// stripe-node's constructEvent with its 300 s tolerance (which checks only that t= is not too old).
// Every attempt is checked at the instant it is signed and sent, with the merchant's secret, so
// no attempt escapes (failing receivers, retries fired by clock advances, the slow-receiver check).
// Run: npx tsx bench/signature-acceptance.ts   (about a minute: the full run against the chains)
import { mkdtemp } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Stripe from 'stripe';
import { runConformance } from '@stablepay/conformance';
import { verifySignature } from '@stablepay/conformance/signature';
import { startServer } from '@stablepay/simulator/server';
import { buildAttemptRequest, type BuildAttemptRequest } from '@stablepay/simulator/webhooks';

const TOLERANCE_S = 300;
const tally = { delivered: 0, ours: 0, stripe: 0, maxSkewS: 0, virtualAheadMaxS: 0 };
const rejected: string[] = [];

const checked: BuildAttemptRequest = (input) => {
  const request = buildAttemptRequest(input);
  const now = Date.now();
  tally.delivered += 1;
  const headers = Object.fromEntries(Object.entries(request.headers).map(([k, v]) => [k.toLowerCase(), v]));
  const ours = verifySignature({
    headers,
    rawBody: request.body,
    secret: input.secret,
    nowSeconds: Math.floor(now / 1000),
    toleranceSeconds: TOLERANCE_S,
  });
  if (ours.ok) tally.ours += 1;
  else rejected.push(`ours: ${ours.reason} ${ours.detail}`);
  try {
    Stripe.webhooks.constructEvent(request.body, headers['x-service-signature']!, input.secret, TOLERANCE_S, undefined, now);
    tally.stripe += 1;
  } catch (error) {
    rejected.push(`stripe: ${(error as Error).message}`);
  }
  tally.maxSkewS = Math.max(tally.maxSkewS, Math.abs(Number(headers['x-service-timestamp']) - Math.floor(now / 1000)));
  tally.virtualAheadMaxS = Math.max(tally.virtualAheadMaxS, Math.floor((input.instantMs - now) / 1000));
  return request;
};

const quiet = { info() {}, error() {} };
const server = await startServer({ host: '127.0.0.1', port: 0, logger: quiet, chains: true, webhookOptions: { buildRequest: checked } });
// The default merchant has an endpoint, as a merchant rehearsing against the simulator would:
// whatever the run does to that merchant's payments is delivered (and counted) too.
const merchantReceiver = createServer((req, res) => req.resume().on('end', () => res.writeHead(204).end()));
await new Promise<void>((resolve) => merchantReceiver.listen(0, '127.0.0.1', resolve));
const configured = await fetch(`${server.url}/v1/webhooks`, {
  method: 'POST',
  headers: { authorization: `Bearer ${server.simulator.defaultApiKey}`, 'content-type': 'application/json' },
  body: JSON.stringify({ url: `http://127.0.0.1:${(merchantReceiver.address() as AddressInfo).port}/hooks` }),
});
if (configured.status !== 201) throw new Error(`default merchant endpoint: ${configured.status}`);
const started = performance.now();
try {
  const outcome = await runConformance({
    baseUrl: server.url,
    apiKey: server.simulator.defaultApiKey,
    reportDir: await mkdtemp(join(tmpdir(), 'sig-accept-')),
    formats: ['json'],
    write: () => undefined,
  });
  await server.simulator.webhooks.idle();
  const { summary } = outcome.result;
  console.log(
    `conformance run: ${outcome.result.checks.length} checks, ${summary.requests} requests, exit ${outcome.exitCode}, ${((performance.now() - started) / 1000).toFixed(1)} s`,
  );
} finally {
  await server.close();
  merchantReceiver.closeAllConnections();
  merchantReceiver.close();
}
console.log(`deliveries (attempts sent): ${tally.delivered}`);
console.log(`accepted, two-sided ±${TOLERANCE_S} s against the receiver's wall clock (ours): ${tally.ours} / ${tally.delivered}`);
console.log(`accepted, stripe-node constructEvent (tolerance ${TOLERANCE_S} s): ${tally.stripe} / ${tally.delivered}`);
console.log(
  `largest |t= - receiver wall clock|: ${tally.maxSkewS} s; largest lead of an attempt's virtual time over the wall clock: ${tally.virtualAheadMaxS} s (${(tally.virtualAheadMaxS / 86_400).toFixed(1)} days)`,
);
for (const line of [...new Set(rejected)].slice(0, 10)) console.log(`  rejected: ${line}`);
