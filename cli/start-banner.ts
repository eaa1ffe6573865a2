// What `stablepay start` prints once the simulator is up: how to reach it, the chains, the key, and two curl lines.
import { describeControlExposure } from '@stablepay/simulator/control-exposure';
import { faultBanner } from '@stablepay/simulator/faults';
import type { RunningServer } from '@stablepay/simulator/server';

function chainLines(server: RunningServer): string[] {
  const network = server.simulator.chains;
  if (!network) return ['  Chains         none (--no-chains): payments settle instantly in memory'];
  return [
    `  Chains         ${network.chains.size} local Anvil chains; payments settle on-chain through ERC-4337 (EntryPoint ${network.entryPoint})`,
    ...[...network.chains.values()].map((c) => `    ${c.name.padEnd(16)} chainId ${String(c.chainId).padEnd(6)} ${c.rpcUrl}`),
  ];
}

/** `replicaUrls`: with --replicas, each replica's own URL (the Base URL is then the balancer in front of them). */
export function startupBanner(server: RunningServer, demoPaymentUrl?: string, replicaUrls?: string[]): string {
  const known = server.simulator.defaultApiKey;
  // Restarted on a state dir without --api-key: the key of the first start still works, but only its hash is kept.
  const key = known === '' ? '$STABLEPAY_API_KEY' : known;
  const restored = server.simulator.restored;
  const lines = [
    'stablepay simulator is running',
    `  Base URL       ${server.url}  (API under /v1; also the --base-url for stablepay conformance)`,
    ...(replicaUrls
      ? [`  Replicas       ${replicaUrls.length} on one database, round-robin behind the Base URL: ${replicaUrls.join(', ')}`]
      : []),
    `  Pay URL        ${server.payUrl}`,
    ...(demoPaymentUrl ? [`  Payment page   ${demoPaymentUrl}  (a demo payment of 25.00 USD: open it in a browser and pay)`] : []),
    `  Control API    ${server.controlUrl ?? '(disabled)'}${server.controlUrl ? `  (${describeControlExposure(server.controlExposure)})` : ''}`,
    ...chainLines(server),
    ...(server.stateStore ? [`  State          kept in ${server.stateStore.replace(/^the /, '')}`] : []),
    ...(restored
      ? [
          `  State dir      restored ${restored.payments} payments, ${restored.merchants} merchants, ${restored.deliveries} webhook deliveries (${restored.pendingDeliveries} pending)`,
        ]
      : []),
    known === ''
      ? '  Default API key: the one of the first start on this state dir (only its hash is kept; --api-key sets a known one)'
      : `  Default API key (shown only now): ${key}`,
    '',
    'Create a payment:',
    `  curl -s -X POST ${server.url}/v1/payments -H 'Authorization: Bearer ${key}' -H 'Content-Type: application/json' -d '{"amount":"100","currency":"USD"}'`,
    'Configure a webhook endpoint:',
    `  curl -s -X POST ${server.url}/v1/webhooks -H 'Authorization: Bearer ${key}' -H 'Content-Type: application/json' -d '{"url":"http://127.0.0.1:8080/webhooks"}'`,
  ];
  // Repeated last, so a deliberately broken simulator is the last thing the operator reads.
  if (server.simulator.faults.length > 0) lines.push('', faultBanner(server.simulator.faults));
  return lines.join('\n');
}
