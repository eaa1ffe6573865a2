// Timing checks run free of the suite's own load: a check's ACTIVE payments are cancelled when it ends, so they do not
// all expire (and deliver payment.expired) at a later check's clock jump. A check's own payments stay ACTIVE while it
// runs, across its own clock jumps; only those of the merchant that created them are cancelled, by that merchant.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningServer } from '@stablepay/simulator/server';
import type { Check } from './check.ts';
import { runConformance } from './index.ts';
import { defineCheck } from './registry.ts';
import { startServer } from '@stablepay/simulator/server';
import { quietLogger } from './test-support/simulator.ts';
import { createPayment, getPayment } from './support/payments.ts';

describe('payments a check leaves ACTIVE are cancelled when it ends', () => {
  let server: RunningServer;
  beforeAll(async () => {
    server = await startServer({ host: '127.0.0.1', port: 0, logger: quietLogger, chains: false });
  });
  afterAll(async () => server?.close());

  it('cancels them after the check, by the merchant that created them, and never during it', async () => {
    const seen: Record<string, string> = {};
    const ids: { first: string[]; second: string[] } = { first: [], second: [] };
    const creates = defineCheck({
      id: 'selftest.creates',
      title: 'creates payments with the main merchant and with a merchant of its own, and moves the clock past none of their expiries',
      requirements: ['PAY-CREATE-RESPONSE-201'],
      level: 'documented',
      needs: ['control'],
      tags: [],
      resources: { exclusive: ['clock'] },
      async run(ctx) {
        const { api: own } = await ctx.newMerchant('created payments');
        for (const api of [ctx.api, own, own])
          ids.first.push(
            (
              await createPayment(api, {
                amount: '10',
                currency: 'USD',
                expiresAt: new Date((await ctx.clock.refresh()) + 2 * 3600_000).toISOString(),
              })
            ).payment.id,
          );
        await ctx.advanceClock(3600_000);
        seen.duringOwnCheck = String((await getPayment(own, ids.first[1]!)).payment.status);
      },
    });
    const after = defineCheck({
      id: 'selftest.after',
      title: 'runs after it and finds the earlier payments no longer ACTIVE',
      requirements: ['PAY-CREATE-RESPONSE-201'],
      level: 'documented',
      needs: ['control'],
      tags: [],
      async run(ctx) {
        // Read in the simulator: with test clocks the first check's main merchant was one of its own (own-clock.ts).
        seen.mainAfter = String(server.simulator.payments.find(ids.first[0]!)?.status);
        ids.second.push((await createPayment(ctx.api, { amount: '11', currency: 'USD' })).payment.id);
      },
    });
    const checks: Check[] = [creates, after];
    const outcome = await runConformance(
      {
        baseUrl: server.url,
        apiKey: server.simulator.defaultApiKey,
        formats: ['json'],
        reportDir: mkdtempSync(join(tmpdir(), 'stablepay-created-payments-')),
        progress: false,
        write: () => undefined,
        // The second check must start after the first has ended (it reads what the first one's cleanup did).
        workers: 1,
      },
      { checks },
    );
    expect(outcome.result.checks.map((c) => `${c.id} ${c.result}`)).toEqual(['selftest.creates pass', 'selftest.after pass']);
    expect(seen).toEqual({ duringOwnCheck: 'ACTIVE', mainAfter: 'CANCELLED' });
    for (const id of [...ids.first, ...ids.second]) expect(server.simulator.payments.find(id)?.status, id).toBe('CANCELLED');
  });
});
