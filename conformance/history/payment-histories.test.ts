import { describe, expect, it } from 'vitest';
import type { HttpClient } from '../http/client.ts';
import type { Payment } from '../support/payments.ts';
import { PaymentHistories, sequentialViews } from './payment-histories.ts';

const client = {} as HttpClient;
const ID = '3f1c2a9e-8b7d-4c6e-9a5f-1e2d3c4b5a69';
const view = (status: string) => ({ id: ID, status }) as unknown as Payment;

describe('PaymentHistories', () => {
  it('keeps every view of a payment by any path, with the create body; ignores lists and other answers', () => {
    const histories = new PaymentHistories();
    histories.observe(
      client,
      { method: 'POST', path: '/v1/payments', checkId: 'a', json: { amount: '1', currency: 'USD' } },
      { status: 201, json: view('ACTIVE') },
    );
    histories.observe(client, { method: 'GET', path: `/v1/payments/${ID}`, checkId: 'b' }, { status: 200, json: view('ACTIVE') });
    histories.observe(client, { method: 'DELETE', path: `/v1/payments/${ID}`, checkId: 'c' }, { status: 200, json: view('CANCELLED') });
    histories.observe(client, { method: 'GET', path: '/v1/payments', checkId: 'd' }, { status: 200, json: { data: [view('X')] } });
    histories.observe(client, { method: 'DELETE', path: `/v1/payments/${ID}`, checkId: 'e' }, { status: 400, json: { message: 'no' } });
    const history = histories.get(ID)!;
    expect(history.request).toEqual({ amount: '1', currency: 'USD' });
    expect(history.views.map((v) => [v.via, v.checkId, v.payment.status])).toEqual([
      ['create', 'a', 'ACTIVE'],
      ['get', 'b', 'ACTIVE'],
      ['cancel', 'c', 'CANCELLED'],
    ]);
  });

  it('orders views by answer and drops one read while another was in flight', () => {
    const v = (startedAt: number, endedAt: number, status: string) => ({
      payment: view(status),
      via: 'get' as const,
      checkId: 'x',
      startedAt,
      endedAt,
    });
    const kept = sequentialViews({ id: ID, views: [v(30, 40, 'C'), v(0, 10, 'A'), v(5, 20, 'B')] });
    expect(kept.map((k) => k.payment.status)).toEqual(['A', 'C']);
  });
});
