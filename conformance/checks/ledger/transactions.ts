// GET /v1/transactions: one ledger record per settlement (SUCCESSFUL payment) and nothing for
// payments that did not settle; the records walk with the cursor like every list.
import type { Transaction, TransactionList } from '@stablepay/contract/types';
import type { CheckContext } from '../../context.ts';
import { defineCheck } from '../../registry.ts';
import {
  checkMerchant,
  failAsCustomer,
  failableSellers,
  holdProcessing,
  payAsCustomer,
  requireCustomerPath,
} from '../../support/customer-path.ts';
import { createPayment, uniqueExternalId } from '../../support/payments.ts';
import type { Received } from '../../received.ts';

const TXN_FIELDS = [
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
];

type Txn = Received<Transaction>;

export const ledgerTransactions = defineCheck({
  id: 'ledger.one-per-settlement',
  title: 'The transaction ledger holds exactly one record per settled payment, cursor-paginated',
  requirements: ['TXN-LEDGER-ENDPOINT', 'LIST-CURSOR-PAGINATED', 'TXN-ONE-PER-SUCCESSFUL', 'TXN-RECORD-SHAPE'],
  level: 'documented',
  needs: [],
  tags: ['ledger', 'pagination'],
  async run(ctx: CheckContext) {
    const path = requireCustomerPath(ctx);
    const api = await checkMerchant(ctx, 'ledger');
    const settled = new Map<string, Record<string, unknown>>();
    const unsettled: string[] = [];
    // Without a control API the main merchant's earlier settlements are in the ledger too: only this check's count.
    const before = path === 'control' ? new Set<string>() : await ledgerPaymentIds(api);
    const pairs: [number, string][] = [
      [1, 'USDC'],
      [42161, 'USDT'],
      [137, 'USDC'],
      [56, 'USDT'],
      [8453, 'USDC'],
    ];
    const created: Awaited<ReturnType<typeof createPayment>>['payment'][] = [];
    for (const [i] of pairs.entries()) {
      const one = await createPayment(api, { amount: `${10 + i}.25`, currency: 'USD', externalId: uniqueExternalId('ledger') });
      ctx.requireStatus(one, 201, 'TXN-LEDGER-ENDPOINT', 'Setup: create');
      created.push(one.payment);
    }
    await Promise.all(
      pairs.map(async ([chainId, token], i) => {
        const paid = await payAsCustomer(ctx, api, created[i]!, { chainId, token });
        ctx.require(
          paid.status === 'SUCCESSFUL',
          'TXN-LEDGER-ENDPOINT',
          "Setup: the customer's payment did not settle",
          `status ${paid.status}`,
        );
        settled.set(paid.id, paid as unknown as Record<string, unknown>);
      }),
    );
    const failing = await createPayment(api, {
      amount: '8.88',
      currency: 'USD',
      ...(failableSellers(ctx) ? { sellers: failableSellers(ctx) } : {}),
    });
    ctx.requireStatus(failing, 201, 'TXN-LEDGER-ENDPOINT', 'Setup: create');
    await failAsCustomer(ctx, api, failing.payment);
    unsettled.push(failing.payment.id);
    const processing = await createPayment(api, { amount: '9.99', currency: 'USD' });
    ctx.requireStatus(processing, 201, 'TXN-LEDGER-ENDPOINT', 'Setup: create');
    const held = await holdProcessing(ctx, api, processing.payment, { chainId: 1, token: 'USDT' });
    unsettled.push(processing.payment.id);
    try {
      await judgeLedger(ctx, api, settled, unsettled, before);
    } finally {
      if (path !== 'control') await held.release();
    }
  },
});

async function ledgerPaymentIds(api: Parameters<typeof createPayment>[0]): Promise<Set<string>> {
  const ids = new Set<string>();
  let cursor: string | undefined;
  for (let page = 0; page < 50; page++) {
    const response = await api.get('/v1/transactions', { limit: 100, cursor });
    if (response.status !== 200) break;
    const body = response.json as Received<TransactionList>;
    for (const record of body.data ?? []) ids.add(String(record.paymentId));
    if (!body.hasMore || !body.data?.length) break;
    cursor = body.data.at(-1)?.id;
  }
  return ids;
}

async function judgeLedger(
  ctx: CheckContext,
  api: Parameters<typeof createPayment>[0],
  settled: Map<string, Record<string, unknown>>,
  unsettled: string[],
  before: Set<string>,
): Promise<void> {
  const records: Txn[] = [];
  let cursor: string | undefined;
  for (let page = 0; page < 100; page++) {
    const response = await api.get('/v1/transactions', { limit: 2, cursor });
    ctx.addCases();
    ctx.requireStatus(response, 200, 'TXN-LEDGER-ENDPOINT', 'GET /v1/transactions does not answer');
    const body = response.json as Received<TransactionList>;
    ctx.require(
      Array.isArray(body?.data) && typeof body.hasMore === 'boolean' && 'nextCursor' in body,
      'LIST-CURSOR-PAGINATED',
      'The ledger is not a list envelope',
      () => response.text.slice(0, 300),
      response.exchange,
    );
    ctx.require(
      body.data.length <= 2,
      'LIST-CURSOR-PAGINATED',
      'A ledger page is larger than limit',
      `${body.data.length} items with limit 2`,
      response.exchange,
    );
    records.push(...body.data);
    for (const record of body.data) {
      const keys = Object.keys(record).sort();
      ctx.expect(
        keys.join(',') === [...TXN_FIELDS].sort().join(','),
        'TXN-RECORD-SHAPE',
        'A ledger record does not have the documented fields',
        `fields ${keys.join(', ')}`,
        response.exchange,
      );
    }
    if (!body.hasMore) break;
    ctx.require(
      body.nextCursor === body.data.at(-1)?.id,
      'LIST-CURSOR-PAGINATED',
      'nextCursor is not the id of the last ledger record',
      `nextCursor ${JSON.stringify(body.nextCursor)}`,
      response.exchange,
    );
    cursor = body.data.at(-1)?.id;
  }
  const byPayment = new Map<string, number>();
  for (const record of records) byPayment.set(String(record.paymentId), (byPayment.get(String(record.paymentId)) ?? 0) + 1);
  for (const [id, payment] of settled) {
    ctx.addCases();
    ctx.expect(
      byPayment.get(id) === 1,
      'TXN-LEDGER-ENDPOINT',
      'A settlement does not have exactly one ledger record',
      `payment ${id}: ${byPayment.get(id) ?? 0} records`,
    );
    const record = records.find((r) => r.paymentId === id);
    if (record) {
      const mismatched = (
        ['txHash', 'chainId', 'token', 'amount', 'currency', 'amountToken', 'serviceFeeToken', 'merchantFeeToken', 'gasActual'] as const
      ).filter((f) => record[f] !== payment[f]);
      ctx.expect(
        mismatched.length === 0,
        'TXN-RECORD-SHAPE',
        'A ledger record disagrees with its payment',
        `payment ${id}: ${mismatched.map((f) => `${f} ${JSON.stringify(record[f])} vs ${JSON.stringify(payment[f])}`).join('; ')}`,
      );
      const roles = Array.isArray(record.transfers)
        ? (record.transfers as { role?: string }[])
            .map((t) => t.role)
            .sort()
            .join(',')
        : '';
      ctx.expect(
        roles === 'merchant,service',
        'TXN-RECORD-SHAPE',
        'A ledger record does not list the merchant and service transfers',
        `transfers ${JSON.stringify(record.transfers)}`,
      );
    }
  }
  const extra = unsettled.filter((id) => byPayment.has(id));
  ctx.expect(
    extra.length === 0,
    'TXN-ONE-PER-SUCCESSFUL',
    'Unsettled payments appear in the ledger',
    `PROCESSING/FAILED payments listed: ${extra.join(', ')}`,
  );
  const fresh = records.filter((r) => !before.has(String(r.paymentId)));
  ctx.expect(
    fresh.length === settled.size,
    'TXN-ONE-PER-SUCCESSFUL',
    'The ledger has records that are no settlement of this merchant',
    `${fresh.length} new records for ${settled.size} settlements`,
  );
}
