import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import { createHarness, TEST_START, type Harness } from '../../test-support/harness.ts';
import { csvField, paymentsCsv, paymentsCsvStream } from './csv-export.ts';
import { summarize } from './summary.ts';

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

describe('GET /v1/analytics from tallies', () => {
  // The tallies are fed by the payment service's transitions (create, pay, submit + fail, cancel,
  // expiry on the clock): for random histories the answer equals a scan of the store.
  const op = fc.oneof(
    fc.record({
      kind: fc.constant('create' as const),
      amount: fc.integer({ min: 1, max: 99_999 }),
      currency: fc.constantFrom('USD', 'EUR', 'JPY'),
    }),
    fc.record({
      kind: fc.constantFrom('pay' as const, 'fail' as const, 'cancel' as const),
      pick: fc.nat(),
      chainId: fc.constantFrom(1, 137, 8453),
      token: fc.constantFrom('USDC', 'USDT'),
    }),
    fc.record({ kind: fc.constant('advance' as const), ms: fc.constantFrom(1, 999, 59_999, 60_000, 3_600_000, 1_800_000, 86_400_000) }),
  );

  it('equals a scan of the store for random histories and windows', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(op, { maxLength: 25 }),
        fc.array(fc.tuple(fc.nat(3 * 86_400_000), fc.nat(3 * 86_400_000)), { minLength: 1, maxLength: 3 }),
        async (ops, windows) => {
          h = createHarness();
          const ids: string[] = [];
          try {
            for (const o of ops) {
              if (o.kind === 'create') {
                const amount = o.currency === 'JPY' ? String(o.amount + 150) : (o.amount / 100 + 1).toFixed(2);
                const res = await h.createPayment({ amount, currency: o.currency });
                expect(res.status).toBe(201);
                ids.push(res.body.id);
              } else if (o.kind === 'advance') await h.sim.clock.advance(o.ms);
              else if (ids.length > 0) {
                const id = ids[o.pick % ids.length];
                if (o.kind === 'cancel') await h.request('DELETE', `/v1/payments/${id}`);
                else if (o.kind === 'pay')
                  await h.request('POST', `/control/v1/payments/${id}/pay`, { body: { chainId: o.chainId, token: o.token } });
                else {
                  await h.request('POST', `/control/v1/payments/${id}/submit`, { body: { chainId: o.chainId, token: o.token } });
                  await h.request('POST', `/control/v1/payments/${id}/fail`);
                }
              }
            }
            const merchantId = h.sim.defaultMerchant.id;
            for (const [a, b] of [...windows, [0, 0] as [number, number]]) {
              const from = TEST_START + Math.min(a, b) - 1000;
              const to = TEST_START + Math.max(a, b);
              const res = await h.request('GET', `/v1/analytics?from=${new Date(from).toISOString()}&to=${new Date(to).toISOString()}`);
              expect(res.status).toBe(200);
              expect(res.body).toEqual(summarize(h.sim.payments.store.all(merchantId), from, to));
            }
            // The default window too (the last 30 days up to now).
            const now = h.sim.clock.now();
            expect((await h.request('GET', '/v1/analytics')).body).toEqual(
              summarize(h.sim.payments.store.all(merchantId), now - 30 * 86_400_000, now),
            );
          } finally {
            await h.sim.close();
          }
        },
      ),
      { numRuns: 25 },
    );
  }, 60_000);
});

describe('GET /v1/analytics/export', () => {
  it('streams the same bytes as the whole-text CSV, a chunk per pull', async () => {
    h = createHarness();
    for (let i = 0; i < 7; i += 1)
      await h.createPayment({ amount: String(i + 1), currency: 'USD', title: i % 2 ? `=cmd ${i}` : `Tea, "green" ${i}` });
    const payments = [...h.sim.payments.store.all(h.sim.defaultMerchant.id)];
    for (const rowsPerChunk of [1, 2, 3, 7, 100]) {
      let pulled = 0;
      const counted = (function* () {
        for (const p of payments) {
          pulled += 1;
          yield p;
        }
      })();
      const reader = paymentsCsvStream(counted, rowsPerChunk).getReader();
      const first = await reader.read();
      // The first chunk is the header and at most one chunk of rows: no more is formatted before it leaves.
      expect(pulled).toBeLessThanOrEqual(rowsPerChunk + 1);
      const chunks = [first.value as Uint8Array];
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        chunks.push(value);
      }
      expect(Buffer.concat(chunks).toString('utf8')).toBe(paymentsCsv(payments));
      expect(chunks.length).toBe(Math.max(1, Math.ceil(payments.length / rowsPerChunk)));
    }
  });

  it('lets the event loop turn between chunks, and stops formatting when the reader cancels', async () => {
    h = createHarness();
    for (let i = 0; i < 10; i += 1) await h.createPayment({ amount: '1', currency: 'USD' });
    const payments = [...h.sim.payments.store.all(h.sim.defaultMerchant.id)];
    const reader = paymentsCsvStream(payments, 1).getReader();
    let chunks = 0;
    let atTurn = -1;
    setImmediate(() => (atTurn = chunks));
    while (!(await reader.read()).done) chunks += 1;
    expect(chunks).toBe(10);
    // A task queued before the read loop ran while it was still reading: the export did not hold the loop.
    expect(atTurn).toBeGreaterThanOrEqual(0);
    expect(atTurn).toBeLessThan(chunks);

    let pulled = 0;
    let finished = false;
    const counted = (function* () {
      try {
        for (const p of payments) {
          pulled += 1;
          yield p;
        }
      } finally {
        finished = true;
      }
    })();
    const partial = paymentsCsvStream(counted, 2).getReader();
    await partial.read();
    await partial.cancel();
    await new Promise((resolve) => setImmediate(resolve));
    await new Promise((resolve) => setImmediate(resolve));
    expect(finished).toBe(true);
    expect(pulled).toBeLessThanOrEqual(4);
  });

  it('an export of many chunks has every payment of the window once, newest first, while creates interleave', async () => {
    h = createHarness();
    const made: string[] = [];
    for (let i = 0; i < 450; i += 1) {
      made.push((await h.createPayment({ amount: '1', currency: 'USD' })).body.id);
      if (i % 100 === 0) await h.sim.clock.advance(1);
    }
    const res = await h.sim.app.request('/v1/analytics/export', { headers: { authorization: `Bearer ${h.sim.defaultApiKey}` } });
    const reader = res.body!.getReader();
    const chunks: Uint8Array[] = [];
    const late: string[] = [];
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      chunks.push(value);
      // Created while the export is read, in the window's last millisecond (the clock stands still).
      late.push((await h.createPayment({ amount: '2', currency: 'USD' })).body.id);
    }
    expect(late.length).toBeGreaterThan(2);
    const ids = Buffer.concat(chunks)
      .toString('utf8')
      .trimEnd()
      .split('\r\n')
      .slice(1)
      .map((line) => line.split(',')[0] as string);
    // Every payment there when the export started, once; a late one at most once; in the store's order.
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids.filter((id) => made.includes(id)).sort()).toEqual([...made].sort());
    expect(ids.every((id) => made.includes(id) || late.includes(id))).toBe(true);
    const order = [...h.sim.payments.store.all(h.sim.defaultMerchant.id)].map((p) => p.id);
    expect(ids).toEqual(order.filter((id) => ids.includes(id)));
  });

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
    expect(csvField('\ncmd')).toBe('"\'\ncmd"');
    // DDE through a pipe, a formula behind spaces the spreadsheet skips, and the full-width equals sign.
    expect(csvField('|cmd')).toBe("'|cmd");
    expect(csvField(' =1+1')).toBe("' =1+1");
    expect(csvField('\u00a0 @SUM(A1)')).toBe("'\u00a0 @SUM(A1)");
    expect(csvField('\uff1d1+1')).toBe("'\uff1d1+1");
    expect(csvField('=HYPERLINK("http://evil.example","x")')).toBe('"\'=HYPERLINK(""http://evil.example"",""x"")"');
    // Only the first character matters: inner signs and ordinary values stay as they are.
    expect(csvField('a=b')).toBe('a=b');
    expect(csvField('a | b')).toBe('a | b');
    expect(csvField(' plain')).toBe(' plain');
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
    expect(lines[0]).toBe(
      'id,createdAt,status,amount,currency,serviceFee,merchantFee,externalId,title,chainId,token,exchangeRate,amountToken,txHash,paidAt',
    );
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
      'id',
      'paymentId',
      'externalId',
      'chainId',
      'token',
      'txHash',
      'amount',
      'currency',
      'exchangeRate',
      'amountToken',
      'serviceFeeToken',
      'merchantFeeToken',
      'gasActual',
      'transfers',
      'settledAt',
    ]);
    expect((await h.request('GET', '/v1/transactions?cursor=nope')).status).toBe(400);
    expect((await h.request('GET', '/v1/transactions?limit=0')).status).toBe(400);
  });
});
