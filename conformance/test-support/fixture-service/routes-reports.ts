// Analytics, the 30-day CSV export, the ledger, payouts and the JSON-RPC proxy (spec §4: payloads and query
// parameters not shown). The CSV header and the ledger's payment field are the fixture's choices.
import { Hono } from 'hono';
import { iso, problem, type Env } from './http.ts';
import { CHAINS } from './payments.ts';
import { listPage } from './routes-payments.ts';
import type { FixtureState, Payment } from './state.ts';

const DAY = 86_400_000;
const STATUSES = ['ACTIVE', 'PROCESSING', 'SUCCESSFUL', 'FAILED', 'EXPIRED', 'CANCELLED'];
const SIMULATOR_COLUMNS = [
  'id',
  'createdAt',
  'status',
  'amount',
  'currency',
  'serviceFee',
  'merchantFee',
  'externalId',
  'title',
  'chainId',
  'token',
  'exchangeRate',
  'amountToken',
  'txHash',
  'paidAt',
] as const;
/** Another legal header: other names, another order. */
const SNAKE_COLUMNS: [string, (typeof SIMULATOR_COLUMNS)[number]][] = [
  ['created_at', 'createdAt'],
  ['payment_id', 'id'],
  ['state', 'status'],
  ['fiat_amount', 'amount'],
  ['fiat_currency', 'currency'],
  ['merchant_reference', 'externalId'],
  ['description', 'title'],
  ['tx_hash', 'txHash'],
];

function sumUnits(values: string[]): string {
  const scaled = values.reduce((total, v) => total + BigInt(Math.round(Number(v) * 1e6)), 0n);
  return `${scaled / 1_000_000n}.${String(scaled % 1_000_000n).padStart(6, '0')}`;
}

function csvField(value: unknown): string {
  const text = value === null || value === undefined ? '' : String(value);
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

function exportRow(p: Payment, column: (typeof SIMULATOR_COLUMNS)[number]): unknown {
  if (column === 'createdAt') return iso(p.createdAt);
  if (column === 'paidAt') return iso(p.paidAt);
  return p[column];
}

export function reportRoutes(): Hono<Env> {
  const app = new Hono<Env>();
  const mine = (c: import('hono').Context<Env>) =>
    [...c.get('state').payments.values()].filter((p) => p.merchantId === c.get('key').merchantId);
  app.get('/analytics', (c) => {
    const state = c.get('state');
    const to = c.req.query('to') ? Date.parse(c.req.query('to')!) : state.now();
    const from = c.req.query('from') ? Date.parse(c.req.query('from')!) : to - 30 * DAY;
    const inWindow = mine(c).filter((p) => p.createdAt >= from && p.createdAt <= to);
    const settled = inWindow.filter((p) => p.status === 'SUCCESSFUL');
    const byCurrency = [...new Set(settled.map((p) => p.currency))].map((currency) => {
      const of = settled.filter((p) => p.currency === currency);
      return {
        currency,
        count: of.length,
        amount: sumUnits(of.map((p) => p.amount)),
        serviceFee: sumUnits(of.map((p) => p.serviceFee)),
        merchantFee: sumUnits(of.map((p) => p.merchantFee)),
      };
    });
    const split = <K extends 'token' | 'chainId'>(key: K) =>
      [...new Set(settled.map((p) => p[key]))].map((value) => ({
        [key]: value,
        count: settled.filter((p) => p[key] === value).length,
        amountToken: sumUnits(settled.filter((p) => p[key] === value).map((p) => String(p.amountToken))),
      }));
    if (state.choices.summaryShape === 'flat') {
      // Another legal summary: counts per status and per-token and per-chain totals keyed by name.
      const keyed = (key: 'token' | 'chainId') =>
        Object.fromEntries(split(key).map((row) => [String(row[key]), { payments: row.count, volume: row.amountToken }]));
      return c.json({
        period: { start: iso(from), end: iso(to) },
        counts: Object.fromEntries(STATUSES.map((s) => [s.toLowerCase(), inWindow.filter((p) => p.status === s).length])),
        tokens: keyed('token'),
        chains: keyed('chainId'),
      });
    }
    return c.json({
      from: iso(from),
      to: iso(to),
      payments: {
        total: inWindow.length,
        byStatus: Object.fromEntries(STATUSES.map((s) => [s, inWindow.filter((p) => p.status === s).length])),
      },
      volume: byCurrency,
      byToken: split('token'),
      byChain: split('chainId'),
    });
  });
  app.get('/analytics/export', (c) => {
    const state = c.get('state');
    const missing = Object.entries(state.choices.exportQuery).filter(([name, value]) => c.req.query(name) !== value);
    if (missing.length > 0) return problem(c, 400, `the export needs ${missing.map(([name, value]) => `${name}=${value}`).join('&')}`);
    const now = state.now();
    const since = state.has('csv-includes-old') ? 0 : now - 30 * DAY;
    const rows = mine(c)
      .filter((p) => p.createdAt >= since)
      .sort((a, b) => b.createdAt - a.createdAt || b.seq - a.seq);
    const columns = state.choices.csvHeader === 'simulator' ? SIMULATOR_COLUMNS.map((name) => [name, name] as const) : SNAKE_COLUMNS;
    const lines = [
      columns.map(([name]) => name).join(','),
      ...rows.map((p) => columns.map(([, field]) => csvField(exportRow(p, field))).join(',')),
    ];
    return c.body(`${lines.join('\r\n')}\r\n`, 200, { 'content-type': 'text/csv; charset=utf-8' });
  });
  app.get('/transactions', (c) => {
    const state = c.get('state');
    const field = state.choices.ledgerPaymentField;
    const settled = mine(c).filter((p) => p.status === 'SUCCESSFUL');
    const missing = state.has('ledger-misses-settlement') ? settled.at(0)?.id : undefined;
    const records = settled
      .filter((p) => p.id !== missing && p.ledgerId)
      .map((p) => ({ id: p.ledgerId!, createdAt: p.paidAt ?? p.updatedAt, seq: p.seq, p }));
    return listPage(c, records, ({ id, p }) => ({
      id,
      [field]: p.id,
      externalId: p.externalId,
      chainId: p.chainId,
      token: p.token,
      txHash: p.txHash,
      amount: p.amount,
      currency: p.currency,
      exchangeRate: p.exchangeRate,
      amountToken: p.amountToken,
      serviceFeeToken: p.serviceFeeToken,
      merchantFeeToken: p.merchantFeeToken,
      gasActual: p.gasActual,
      transfers: [
        { role: 'merchant', address: '0x52908400098527886E0F7030069857D2E4169EE7', amountToken: p.merchantFeeToken },
        { role: 'service', address: '0x000000000000000000000000000000000000fEE5', amountToken: p.serviceFeeToken },
      ],
      settledAt: iso(p.paidAt),
    }));
  });
  app.get('/payouts/:id', (c) => {
    const state = c.get('state');
    const payout = state.payouts.get(c.req.param('id'));
    if (!payout || payout.merchantId !== c.get('key').merchantId || state.has('payout-not-found'))
      return problem(c, 404, 'Payout not found');
    const view = payoutView(payout);
    if (state.choices.payoutShape === 'simulator') return c.json(view);
    return c.json(
      Object.fromEntries(Object.entries(view).map(([key, value]) => [key.replace(/[A-Z]/g, (ch) => `_${ch.toLowerCase()}`), value])),
    );
  });
  app.post('/web3/:chainId', async (c) => rpc(c.get('state'), c.req.param('chainId'), await c.req.text(), c));
  return app;
}

export function payoutView(p: import('./state.ts').Payout): Record<string, unknown> {
  return {
    id: p.id,
    status: p.status,
    amount: p.amount,
    currency: p.currency,
    recipientAddress: p.recipientAddress,
    externalId: p.externalId,
    chainId: p.chainId,
    token: p.token,
    exchangeRate: null,
    amountToken: null,
    txHash: p.txHash,
    error: null,
    expiresAt: iso(p.expiresAt),
    paidAt: null,
    createdAt: iso(p.createdAt),
    updatedAt: iso(p.updatedAt),
  };
}

const REFUSED = /^(anvil_|evm_|hardhat_|debug_|personal_|eth_send(Raw)?Transaction$|eth_sign)/;

/** A JSON-RPC 2.0 proxy with no node behind it: eth_chainId answers, cheat and signing methods are refused by name. */
function rpc(state: FixtureState, chain: string, text: string, c: import('hono').Context<Env>): Response {
  const chainId = Number(chain);
  if (state.has('web3-not-served')) return problem(c, 404, 'Not found');
  if (!(chainId in CHAINS)) {
    if (state.choices.web3UnknownChain === 'json-rpc-error')
      return c.json({ jsonrpc: '2.0', id: null, error: { code: -32602, message: `chain ${chain} is not supported` } });
    return problem(c, 404, `Unknown chain ${chain}`);
  }
  let request: unknown;
  try {
    request = JSON.parse(text);
  } catch {
    return c.json({ jsonrpc: '2.0', id: null, error: { code: -32700, message: 'Parse error' } });
  }
  const answer = (r: unknown): Record<string, unknown> => {
    const call = r as { jsonrpc?: unknown; id?: unknown; method?: unknown };
    const id = (call?.id ?? null) as string | number | null;
    if (!call || typeof call !== 'object' || call.jsonrpc !== '2.0' || typeof call.method !== 'string')
      return { jsonrpc: '2.0', id, error: { code: -32600, message: 'Invalid request' } };
    if (REFUSED.test(call.method))
      return { jsonrpc: '2.0', id, error: { code: -32000, message: `${call.method} is not allowed through this proxy` } };
    if (call.method === 'eth_chainId') return { jsonrpc: '2.0', id, result: `0x${chainId.toString(16)}` };
    if (call.method === 'eth_blockNumber') return { jsonrpc: '2.0', id, result: '0x1' };
    return { jsonrpc: '2.0', id, error: { code: -32601, message: `${call.method} is not supported` } };
  };
  if (Array.isArray(request))
    return request.length === 0
      ? c.json({ jsonrpc: '2.0', id: null, error: { code: -32600, message: 'Empty batch' } })
      : c.json(request.map(answer));
  return c.json(answer(request));
}
