// payment.cancelled judged against what the run asked for: a cancel the suite sent counts whatever became of it
// (answered, cut off by a cleanup's time limit, still on its way); a refused one counts only if the payment reads
// CANCELLED now; a payment never sent a DELETE was never cancelled. Judged through the check itself on hand-made runs.
import { describe, expect, it } from 'vitest';
import type { CheckContext } from '../../context.ts';
import { CreatedPayments } from '../../created-payments.ts';
import type { HttpClient } from '../../http/client.ts';
import type { Exchange } from '../../http/recorder.ts';
import { recordedDelivery } from '../../test-support/delivery.ts';
import { recordedExchange } from '../../test-support/exchange.ts';
import { eventsAgainstHistory } from './events-against-history.ts';

const ID = 'e2f19918-95f5-4b6a-8a58-d355d705a48d';

const cancelledEvent = () => recordedDelivery('payment.cancelled', ID, 1);

function deleteExchange(status: number | null, transportError: string | null = null): Exchange {
  return recordedExchange({ method: 'DELETE', url: `http://127.0.0.1:1/v1/payments/${ID}`, status, transportError });
}

/** The run: what its cleanup did (created payments), what the recorder holds, and what the payment reads now. */
async function failuresOf(run: { cleanup?: (c: CreatedPayments) => Promise<void>; recorded?: Exchange[]; readsNow: string }) {
  const client = {
    get: async () => ({ status: 200, json: { id: ID, status: run.readsNow } }),
  } as unknown as HttpClient;
  const createdPayments = new CreatedPayments();
  await run.cleanup?.(createdPayments);
  const failures: string[] = [];
  const ctx = {
    services: {
      paymentHistories: { get: (id: string) => (id === ID ? { id, views: [], client } : undefined) },
      recorder: { all: () => run.recorded ?? [] },
      createdPayments,
    },
    options: { webhookWaitMs: 0 },
    receiver: { all: () => [cancelledEvent()] },
    notExercised: (why: string) => failures.push(`not exercised: ${why}`),
    judged: () => undefined,
    addCases: () => undefined,
    failDelivery: (requirement: string, _title: string, message: string) => failures.push(`${requirement}: ${message}`),
  } as unknown as CheckContext;
  await eventsAgainstHistory.run(ctx);
  return failures;
}

/** A cleanup of one created payment whose DELETE answers `answer` (a promise that never settles: cut off in flight). */
function cleanupAnswering(answer: () => Promise<{ status: number }>) {
  return async (created: CreatedPayments) => {
    const client = { delete: answer } as unknown as HttpClient;
    created.observe(client, { method: 'POST', path: '/v1/payments', checkId: 'selftest' }, { status: 201, json: { id: ID } });
    // Answered ones are settled before the check judges; one that never answers is still in flight then.
    await Promise.race([created.cancelActive('selftest'), new Promise((resolve) => setTimeout(resolve, 20))]);
  };
}

describe('history.events-against-history: payment.cancelled against the cancels the run asked for', () => {
  it('a cleanup DELETE still unanswered when the check judges counts as asked', async () => {
    expect(await failuresOf({ cleanup: cleanupAnswering(() => new Promise(() => undefined)), readsNow: 'CANCELLED' })).toEqual([]);
  });

  it('a cleanup DELETE answered with a refusal, for a payment that reads CANCELLED, counts as asked', async () => {
    expect(await failuresOf({ cleanup: cleanupAnswering(async () => ({ status: 400 })), readsNow: 'CANCELLED' })).toEqual([]);
  });

  it('a recorded DELETE answered with a refusal, for a payment that reads CANCELLED, counts as asked', async () => {
    expect(await failuresOf({ recorded: [deleteExchange(400)], readsNow: 'CANCELLED' })).toEqual([]);
  });

  it('a DELETE cut off in flight (recorded with a transport error) counts as asked', async () => {
    expect(await failuresOf({ recorded: [deleteExchange(null, 'not completed: aborted')], readsNow: 'CANCELLED' })).toEqual([]);
  });

  it('payment.cancelled for a payment whose every DELETE was refused and that reads SUCCESSFUL fails', async () => {
    const failures = await failuresOf({ cleanup: cleanupAnswering(async () => ({ status: 400 })), readsNow: 'SUCCESSFUL' });
    expect(failures).toHaveLength(1);
    expect(failures[0]).toMatch(/^WH-EVENT-PAYMENT-CANCELLED: .*reads SUCCESSFUL.*every DELETE the run sent for it was refused/);
  });

  it('payment.cancelled for a payment the run never sent a DELETE for fails, whatever it reads', async () => {
    const failures = await failuresOf({ readsNow: 'CANCELLED' });
    expect(failures).toHaveLength(1);
    expect(failures[0]).toMatch(/^WH-EVENT-PAYMENT-CANCELLED: .*never cancelled by the run/);
  });
});
