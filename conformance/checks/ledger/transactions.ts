// GET /v1/transactions: ledger records for every settlement (SUCCESSFUL payment), cursor-paginated (documented);
// one record per settlement and nothing for payments that did not settle, the record's fields and the paging
// parameters are ours (the spec shows neither payloads nor query parameters). A record is matched to its payment by
// the field holding the payment's id, found by value (premise ledger.payment-field).
import type { Transaction } from '@stablepay/contract/types';
import type { CheckContext } from '../../context.ts';
import type { HttpClient } from '../../http/client.ts';
import { fieldValue, leaves } from '../../premises/discover/fields.ts';
import { defineCheck } from '../../registry.ts';
import { acceptedAmount, amountScale } from '../../support/amounts.ts';
import {
  checkMerchant,
  failAsCustomer,
  failableSellers,
  holdProcessing,
  payAsCustomer,
  requireCustomerPath,
} from '../../support/customer-path.ts';
import { getList } from '../../support/lists.ts';
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

type Txn = Received<Transaction> & Record<string, unknown>;

export const ledgerTransactions = defineCheck({
  id: 'ledger.one-per-settlement',
  title: 'The transaction ledger holds a record for every settled payment (exactly one, assumed), cursor-paginated',
  requirements: ['TXN-LEDGER-ENDPOINT', 'LIST-ENVELOPE-FIELDS', 'TXN-ONE-PER-SUCCESSFUL', 'TXN-RECORD-SHAPE', 'TXN-LIST-PARAMS'],
  level: 'documented',
  needs: [],
  tags: ['ledger', 'pagination'],
  // Not the main merchant's books alone: every judgement is about the payments this check made (their records, and
  // none for those that did not settle), and the walk pages by the id of the last record (spec §4's cursor), which
  // records other checks' settlements add meanwhile cannot shift. Other checks' records are judged for shape only.
  // Every slot for its six payments at once; it then stops mining on chain 1 to hold one PROCESSING.
  resources: { browserSlots: 'all', pausesMining: true },
  premises: ['payments.minimum-amounts', 'list.item-key', 'ledger.payment-field'],
  async run(ctx: CheckContext) {
    const path = requireCustomerPath(ctx);
    const api = await checkMerchant(ctx, 'ledger');
    const settled = new Map<string, Record<string, unknown>>();
    const unsettled: string[] = [];
    const pairs: [number, string][] = [
      [1, 'USDC'],
      [42161, 'USDT'],
      [137, 'USDC'],
      [56, 'USDT'],
      [8453, 'USDC'],
    ];
    const created: Awaited<ReturnType<typeof createPayment>>['payment'][] = [];
    const scale = await amountScale(ctx, 'USD', '10.25');
    for (const [i] of pairs.entries()) {
      const one = await createPayment(api, { amount: `${(10 + i) * scale}.25`, currency: 'USD', externalId: uniqueExternalId('ledger') });
      ctx.requireStatus(one, 201, 'TXN-LEDGER-ENDPOINT', 'Setup: create');
      created.push(one.payment);
    }
    const failing = await createPayment(api, {
      amount: await acceptedAmount(ctx, 'USD', '8.88'),
      currency: 'USD',
      ...(failableSellers(ctx) ? { sellers: failableSellers(ctx) } : {}),
    });
    ctx.requireStatus(failing, 201, 'TXN-LEDGER-ENDPOINT', 'Setup: create');
    // The failing payment beside the settling ones: its revert comes from its own sellers, blacklisted on its chain,
    // which none of the settling payments pays; so the check's payments fill its browser slots in two rounds.
    await Promise.all([
      ...pairs.map(async ([chainId, token], i) => {
        const paid = await payAsCustomer(ctx, api, created[i]!, { chainId, token });
        ctx.require(
          paid.status === 'SUCCESSFUL',
          'TXN-LEDGER-ENDPOINT',
          "Setup: the customer's payment did not settle",
          `status ${paid.status}`,
        );
        settled.set(paid.id, paid as unknown as Record<string, unknown>);
      }),
      failAsCustomer(ctx, api, failing.payment),
    ]);
    unsettled.push(failing.payment.id);
    // Held last: holding stops mining on chain 1, where one of the settling payments is paid.
    const processing = await createPayment(api, { amount: await acceptedAmount(ctx, 'USD', '9.99'), currency: 'USD' });
    ctx.requireStatus(processing, 201, 'TXN-LEDGER-ENDPOINT', 'Setup: create');
    const held = await holdProcessing(ctx, api, processing.payment, { chainId: 1, token: 'USDT' });
    unsettled.push(processing.payment.id);
    try {
      await judgeLedger(ctx, api, settled, unsettled);
    } finally {
      if (path !== 'control') await held.release();
    }
  },
});

/** The field of the records that holds a settled payment's id (the established one, else found by value). */
async function paymentFieldOf(ctx: CheckContext, records: Txn[], settled: Set<string>): Promise<string | null> {
  const state = await ctx.premiseState('ledger.payment-field');
  const holds = (field: string) => records.some((record) => settled.has(String(fieldValue(record, field))));
  if (holds(state.value)) {
    if (state.status !== 'declared')
      ctx.confirmPremise('ledger.payment-field', state.value, {
        sent: 'GET /v1/transactions',
        seen: `\`${state.value}\` holds the settled payments' ids`,
      });
    return state.value;
  }
  const found = [
    ...new Set(
      records.flatMap((record) =>
        leaves(record)
          .filter(([, value]) => typeof value === 'string' && settled.has(value))
          .map(([field]) => field),
      ),
    ),
  ];
  if (found.length === 1) {
    ctx.confirmPremise('ledger.payment-field', found[0]!, {
      sent: 'GET /v1/transactions',
      seen: `\`${found[0]}\` holds the settled payments' ids`,
    });
    return found[0]!;
  }
  ctx.refutePremise('ledger.payment-field', {
    sent: 'GET /v1/transactions',
    seen:
      found.length === 0
        ? `no field of ${records.length} records holds a settled payment's id`
        : `several fields hold payment ids: ${found.join(', ')}`,
  });
  return null;
}

/** Whether a record names the payment, in any field (the record's fields are not shown). */
const names = (record: Txn, id: string): boolean => leaves(record).some(([, value]) => value === id);

async function judgeLedger(
  ctx: CheckContext,
  api: HttpClient,
  settled: Map<string, Record<string, unknown>>,
  unsettled: string[],
): Promise<void> {
  const records: Txn[] = [];
  let cursor: string | undefined;
  for (let page = 0; page < 100; page++) {
    const list = await getList<Txn>(ctx, api, '/v1/transactions', { limit: 2, cursor });
    ctx.addCases();
    ctx.require(
      list.status === 200,
      'TXN-LEDGER-ENDPOINT',
      'GET /v1/transactions does not answer',
      () => `answered ${list.status}: ${list.exchange.responseBody.slice(0, 300)}`,
      list.exchange,
    );
    ctx.require(
      list.items !== null && list.envelope,
      'LIST-ENVELOPE-FIELDS',
      'The ledger is not a list envelope',
      () => list.exchange.responseBody.slice(0, 300),
      list.exchange,
    );
    // Its paging parameters are not shown (ours: cursor and limit, as on GET /v1/payments).
    ctx.expect(
      list.items.length <= 2,
      'TXN-LIST-PARAMS',
      'A ledger page is larger than limit',
      `${list.items.length} items with limit 2`,
      list.exchange,
    );
    records.push(...list.items);
    for (const record of list.items) {
      const keys = Object.keys(record).sort();
      ctx.expect(
        keys.join(',') === [...TXN_FIELDS].sort().join(','),
        'TXN-RECORD-SHAPE',
        'A ledger record does not have the documented fields',
        `fields ${keys.join(', ')}`,
        list.exchange,
      );
    }
    if (!list.hasMore || list.items.length === 0) break;
    ctx.expect(
      list.nextCursor === list.items.at(-1)?.id,
      'TXN-LIST-PARAMS',
      'nextCursor is not the id of the last ledger record',
      `nextCursor ${JSON.stringify(list.nextCursor)}`,
      list.exchange,
    );
    cursor = typeof list.nextCursor === 'string' ? list.nextCursor : list.items.at(-1)?.id;
  }
  // Documented: a record for every settlement, judged by the payment's id appearing in a record, whatever the field.
  for (const id of settled.keys()) {
    ctx.addCases();
    ctx.expect(
      records.some((record) => names(record, id)),
      'TXN-LEDGER-ENDPOINT',
      'A settlement has no ledger record',
      `payment ${id} settled; none of the ${records.length} records names it`,
    );
  }
  const field = await paymentFieldOf(
    ctx,
    records.filter((record) => [...settled.keys()].some((id) => names(record, id))),
    new Set(settled.keys()),
  );
  for (const [id, payment] of settled) {
    const mine = records.filter((record) => names(record, id));
    ctx.expect(
      mine.length <= 1,
      'TXN-ONE-PER-SUCCESSFUL',
      'A settlement has more than one ledger record',
      `payment ${id}: ${mine.length} records`,
    );
    const record = field ? mine.find((r) => fieldValue(r, field) === id) : undefined;
    if (!record) continue;
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
  const extra = unsettled.filter((id) => records.some((record) => names(record, id)));
  ctx.expect(
    extra.length === 0,
    'TXN-ONE-PER-SUCCESSFUL',
    'Unsettled payments appear in the ledger',
    `PROCESSING/FAILED payments listed: ${extra.join(', ')}`,
  );
}
