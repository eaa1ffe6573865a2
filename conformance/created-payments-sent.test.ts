// A cleanup's DELETE is noted before it leaves, so a run-level check that judges events against what the run asked for
// counts a cancel whose answer has not come back (a cleanup cut at its time limit, a slow target).
import { describe, expect, it, vi } from 'vitest';
import { CANCEL_CONCURRENCY, CreatedPayments } from './created-payments.ts';
import type { HttpClient } from './http/client.ts';

describe('CreatedPayments.cancelsSent', () => {
  it('holds every payment a cleanup sends a DELETE for, before any answer', async () => {
    const created = new CreatedPayments();
    const sent: string[] = [];
    let answer: () => void = () => undefined;
    const answered = new Promise<void>((resolve) => (answer = resolve));
    const client = {
      delete: (path: string) => {
        sent.push(path);
        return answered.then(() => ({ status: 200 }));
      },
    } as unknown as HttpClient;
    for (const id of ['p-1', 'p-2'])
      created.observe(client, { method: 'POST', path: '/v1/payments', checkId: 'selftest' }, { status: 201, json: { id } });
    created.observe(client, { method: 'POST', path: '/v1/payments', checkId: 'other' }, { status: 201, json: { id: 'p-3' } });
    const cleanup = created.cancelActive('selftest');
    // Nothing answered yet: both are already noted, the other check's payment is not.
    expect([...created.cancelsSent].sort()).toEqual(['p-1', 'p-2']);
    expect(sent).toEqual(['/v1/payments/p-1', '/v1/payments/p-2']);
    answer();
    expect(await cleanup).toBe(2);
    expect([...created.cancelsSent].sort()).toEqual(['p-1', 'p-2']);
  });

  it('keeps a cancel answered with a refusal as sent, and notes the refusal (a run-level check reads the payment)', async () => {
    const created = new CreatedPayments();
    const client = {
      delete: (path: string) => Promise.resolve({ status: path.endsWith('p-1') ? 400 : 200 }),
    } as unknown as HttpClient;
    for (const id of ['p-1', 'p-2'])
      created.observe(client, { method: 'POST', path: '/v1/payments', checkId: 'selftest' }, { status: 201, json: { id } });
    expect(await created.cancelActive('selftest')).toBe(1);
    expect([...created.cancelsSent].sort()).toEqual(['p-1', 'p-2']);
    expect([...created.cancelsRefused]).toEqual(['p-1']);
  });

  it('a DELETE that never answers holds up one lane, not the cleanup: every other payment is still cancelled, a bounded number at once', async () => {
    const created = new CreatedPayments();
    const answered: string[] = [];
    let inFlight = 0;
    let most = 0;
    const client = {
      delete: async (path: string) => {
        inFlight += 1;
        most = Math.max(most, inFlight);
        if (path.endsWith('/p-0')) return new Promise(() => undefined);
        await new Promise((resolve) => setTimeout(resolve, 1));
        inFlight -= 1;
        answered.push(path);
        return { status: 200 };
      },
    } as unknown as HttpClient;
    const ids = Array.from({ length: 300 }, (_, i) => `p-${i}`);
    for (const id of ids)
      created.observe(client, { method: 'POST', path: '/v1/payments', checkId: 'selftest' }, { status: 201, json: { id } });
    void created.cancelActive('selftest');
    await vi.waitFor(() => expect(answered).toHaveLength(299), { timeout: 5000 });
    expect(created.cancelsSent.size).toBe(300);
    expect(most).toBe(CANCEL_CONCURRENCY);
  });
});
