// A cleanup's DELETE is noted before it leaves, so a run-level check that judges events against what the run asked for
// counts a cancel whose answer has not come back (a cleanup cut at its time limit, a slow target).
import { describe, expect, it } from 'vitest';
import { CreatedPayments } from './created-payments.ts';
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

  it('drops a cancel answered with a refusal (the payment was no longer ACTIVE): it took no effect', async () => {
    const created = new CreatedPayments();
    const client = {
      delete: (path: string) => Promise.resolve({ status: path.endsWith('p-1') ? 400 : 200 }),
    } as unknown as HttpClient;
    for (const id of ['p-1', 'p-2'])
      created.observe(client, { method: 'POST', path: '/v1/payments', checkId: 'selftest' }, { status: 201, json: { id } });
    expect(await created.cancelActive('selftest')).toBe(1);
    expect([...created.cancelsSent]).toEqual(['p-2']);
  });
});
