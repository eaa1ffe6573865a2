import { afterEach, describe, expect, it } from 'vitest';
import { createHarness, type Harness } from '../test-support/harness.ts';
import { csvField } from './csv-export.ts';

let h: Harness;
afterEach(async () => h?.sim.close());
const DAY = 86_400_000;

async function pay(body: Record<string, unknown>, chainId: number, token: string): Promise<string> {
  const created = await h.createPayment(body);
  await h.request('POST', `/control/v1/payments/${created.body.id}/pay`, { body: { chainId, token } });
  return created.body.id;
}

describe('GET /v1/analytics', () => {
  it('summarises counts by status, SUCCESSFUL volume, and splits by token and chain', async () => {
    h = createHarness();
    expect((await h.createPayment({ amount: '0.10', currency: 'EUR' })).status).toBe(400); // below minimum: not counted
    await pay({ amount: '1.10', currency: 'EUR' }, 1, 'USDC');
    await pay({ amount: '2.20', currency: 'EUR' }, 1, 'USDT');
    await pay({ amount: '150', currency: 'JPY' }, 8453, 'USDC');
    const cancelled = await h.createPayment();
    await h.request('DELETE', `/v1/payments/${cancelled.body.id}`);
    await h.createPayment();
    const res = await h.request('GET', '/v1/analytics');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      from: '2026-10-22T10:00:00.000Z',
      to: '2026-11-21T10:00:00.000Z',
      payments: { total: 5, byStatus: { ACTIVE: 1, PROCESSING: 0, SUCCESSFUL: 3, FAILED: 0, EXPIRED: 0, CANCELLED: 1 } },
      volume: [
        { currency: 'EUR', count: 2, amount: '3.30', serviceFee: '0.02', merchantFee: '3.28' }, // 0.0055 -> 0.01, 0.011 -> 0.01
        { currency: 'JPY', count: 1, amount: '150', serviceFee: '1', merchantFee: '149' },
      ],
      byToken: [
        { token: 'USDC', count: 2, amountToken: '2.193000' }, // 1.10*1.08 = 1.188 + 150*0.0067 = 1.005
        { token: 'USDT', count: 1, amountToken: '2.376000' },
      ],
      byChain: [
        { chainId: 1, count: 2, amountToken: '3.564000' },
        { chainId: 8453, count: 1, amountToken: '1.005000' },
      ],
    });
  });

  it('honours from/to and validates them', async () => {
    h = createHarness();
    await h.createPayment();
    await h.sim.clock.advance(DAY);
    await h.createPayment();
    expect((await h.request('GET', '/v1/analytics?from=2026-11-22T00:00:00Z')).body.payments.total).toBe(1);
    expect((await h.request('GET', '/v1/analytics?to=2026-11-21T12:00:00Z')).body.payments.total).toBe(1);
    const bad = await h.request('GET', '/v1/analytics?from=yesterday&to=2026-13-01T00:00:00Z');
    expect(bad.body.errors.map((e: { path: string[] }) => e.path)).toEqual([['to'], ['from']]);
    expect((await h.request('GET', '/v1/analytics?from=2026-11-22T00:00:00Z&to=2026-11-21T00:00:00Z')).status).toBe(400);
  });
});

describe('GET /v1/analytics/export', () => {
  it('quotes per RFC 4180', () => {
    expect(csvField('plain')).toBe('plain');
    expect(csvField('a,b')).toBe('"a,b"');
    expect(csvField('say "hi"')).toBe('"say ""hi"""');
    expect(csvField('line\nbreak')).toBe('"line\nbreak"');
    expect(csvField('cr\rhere')).toBe('"cr\rhere"');
    expect(csvField(null)).toBe('');
    expect(csvField(8453)).toBe('8453');
  });

  it('neutralises cells a spreadsheet would run as formulas (OWASP CSV injection)', () => {
    for (const start of ['=', '+', '-', '@']) expect(csvField(`${start}1+1`)).toBe(`'${start}1+1`);
    expect(csvField('\tcmd')).toBe("'\tcmd");
    expect(csvField('\rcmd')).toBe('"\'\rcmd"');
    expect(csvField('=HYPERLINK("http://evil.example","x")')).toBe('"\'=HYPERLINK(""http://evil.example"",""x"")"');
    // Only the first character matters: inner signs and ordinary values stay as they are.
    expect(csvField('a=b')).toBe('a=b');
    expect(csvField('10.5')).toBe('10.5');
  });

  it('an exported payment titled with a formula opens as text', async () => {
    h = createHarness();
    await h.createPayment({ amount: '5', currency: 'USD', title: '=HYPERLINK("http://evil.example","click")', externalId: 'ord-1' });
    const res = await h.request('GET', '/v1/analytics/export');
    const row = res.text.split('\r\n')[1]!;
    expect(row).toContain(',ord-1,"\'=HYPERLINK(""http://evil.example"",""click"")",');
    expect(row).not.toMatch(/(^|,)"?[=+\-@]/);
  });

  it('exports the last 30 days newest first, CRLF, header row, quoted titles', async () => {
    h = createHarness();
    await h.createPayment({ amount: '5', currency: 'USD', title: 'too old' });
    await h.sim.clock.advance(31 * DAY);
    const paidId = await pay({ amount: '10', currency: 'USD', title: 'Tea, "green"\r\nx2', externalId: 'e-1' }, 137, 'USDC');
    await h.sim.clock.advance(1000);
    await h.createPayment({ amount: '7.5', currency: 'USD' });
    const res = await h.request('GET', '/v1/analytics/export');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    expect(res.headers.get('x-ratelimit-limit')).toBe('6000');
    expect(res.text.endsWith('\r\n')).toBe(true);
    const lines = res.text.split('\r\n');
    expect(lines[0]).toBe('id,createdAt,status,amount,currency,serviceFee,merchantFee,externalId,title,chainId,token,exchangeRate,amountToken,txHash,paidAt');
    expect(lines[1]).toMatch(/^[0-9a-f-]{36},2026-12-22T10:00:01\.000Z,ACTIVE,7\.5,USD,0\.04,7\.46,,,,,,,,$/);
    const paid = await h.request('GET', `/v1/payments/${paidId}`);
    expect(lines[2]).toBe(`${paidId},2026-12-22T10:00:00.000Z,SUCCESSFUL,10,USD,0.05,9.95,e-1,"Tea, ""green""`);
    expect(lines[3]).toBe(`x2",137,USDC,1.000000,10.000000,${paid.body.txHash},2026-12-22T10:00:00.000Z`);
    expect(lines).toHaveLength(5); // header, two rows (one spans two physical lines), trailing ''
    expect(res.text).not.toContain('too old');
  });
});

describe('GET /v1/transactions', () => {
  it('has one record per SUCCESSFUL payment, cursor-paginated newest first', async () => {
    h = createHarness();
    const ids: string[] = [];
    for (let i = 0; i < 3; i += 1) {
      ids.push(await pay({ amount: '10', currency: 'USD' }, 8453, 'USDC'));
      await h.sim.clock.advance(1000);
    }
    const failed = await h.createPayment();
    await h.request('POST', `/control/v1/payments/${failed.body.id}/submit`, { body: { chainId: 1, token: 'USDC' } });
    await h.request('POST', `/control/v1/payments/${failed.body.id}/fail`);
    const first = await h.request('GET', '/v1/transactions?limit=2');
    expect(first.body.data.map((t: { paymentId: string }) => t.paymentId)).toEqual([ids[2], ids[1]]);
    expect(first.body.hasMore).toBe(true);
    const rest = await h.request('GET', `/v1/transactions?cursor=${first.body.nextCursor}`);
    expect(rest.body).toMatchObject({ hasMore: false, nextCursor: null });
    expect(rest.body.data.map((t: { paymentId: string }) => t.paymentId)).toEqual([ids[0]]);
    expect(Object.keys(rest.body.data[0])).toEqual([
      'id', 'paymentId', 'externalId', 'chainId', 'token', 'txHash', 'amount', 'currency', 'exchangeRate', 'amountToken',
      'serviceFeeToken', 'merchantFeeToken', 'gasActual', 'transfers', 'settledAt',
    ]);
    expect((await h.request('GET', '/v1/transactions?cursor=nope')).status).toBe(400);
    expect((await h.request('GET', '/v1/transactions?limit=0')).status).toBe(400);
  });
});
