// GET /v1/analytics/export: an RFC 4180 CSV (CRLF, header row, quoted fields where needed) of the
// payments of the last 30 days, newest first. A fresh merchant makes a payment, the clock moves
// 31 days on, and a second payment is made: only the second is exported.
import type { CheckContext } from '../../context.ts';
import { defineCheck } from '../../registry.ts';
import { createPayment, uniqueExternalId } from '../../support/payments.ts';

const HEADER =
  'id,createdAt,status,amount,currency,serviceFee,merchantFee,externalId,title,chainId,token,exchangeRate,amountToken,txHash,paidAt';

/** RFC 4180 parser: null when the text breaks the grammar (bare quote, LF without CR, ...). */
export function parseCsv(text: string): string[][] | null {
  const rows: string[][] = [];
  let row: string[] = [];
  let i = 0;
  while (i < text.length) {
    let field = '';
    if (text[i] === '"') {
      i++;
      for (;;) {
        if (i >= text.length) return null;
        if (text[i] === '"') {
          if (text[i + 1] === '"') {
            field += '"';
            i += 2;
            continue;
          }
          i++;
          break;
        }
        field += text[i++];
      }
    } else {
      while (i < text.length && text[i] !== ',' && text[i] !== '\r' && text[i] !== '\n') {
        if (text[i] === '"') return null;
        field += text[i++];
      }
    }
    row.push(field);
    if (text[i] === ',') {
      i++;
      continue;
    }
    if (i >= text.length) break;
    if (text[i] !== '\r' || text[i + 1] !== '\n') return null;
    i += 2;
    rows.push(row);
    row = [];
  }
  if (row.length > 0) rows.push(row);
  return rows;
}

export const analyticsExport = defineCheck({
  id: 'analytics.export-csv',
  title: 'The analytics export is an RFC 4180 CSV with a header row, covering the last 30 days, newest first',
  requirements: ['ANL-EXPORT-CSV-30D', 'ANL-EXPORT-FORMAT', 'ANL-EXPORT-ORDER'],
  level: 'documented',
  needs: [],
  tags: ['analytics', 'clock'],
  async run(ctx: CheckContext) {
    // A fresh merchant with the control API; else the main merchant, whose earlier payments all fall out of the
    // 30-day window when the clock (libfaketime) moves 31 days.
    if (!ctx.canMoveClock) ctx.notExercised('no control API and no clock the suite can move');
    const api = ctx.services.control ? (await ctx.newMerchant('export')).api : ctx.api;
    const old = await createPayment(api, { amount: '12.00', currency: 'EUR' });
    ctx.requireStatus(old, 201, 'ANL-EXPORT-CSV-30D', 'Setup: create');
    await ctx.advanceClock(31 * 86_400_000);
    const tricky = { amount: '13.50', currency: 'GBP', title: 'Order "42", 2 lines\r\nsecond line', externalId: uniqueExternalId('csv') };
    const first = await createPayment(api, tricky);
    ctx.requireStatus(first, 201, 'ANL-EXPORT-CSV-30D', 'Setup: create');
    // Two creates in one millisecond may sort either way (createdAt ties break on id), so the
    // expected order is made unambiguous in time.
    await ctx.advanceClock(1000);
    const second = await createPayment(api, { amount: '5000', currency: 'JPY' });
    ctx.requireStatus(second, 201, 'ANL-EXPORT-CSV-30D', 'Setup: create');

    const response = await api.request({ method: 'GET', path: '/v1/analytics/export', headers: { accept: 'text/csv' } });
    ctx.requireStatus(response, 200, 'ANL-EXPORT-CSV-30D', 'GET /v1/analytics/export does not answer');
    ctx.addCases();
    ctx.expect(
      /^text\/csv\s*;\s*charset=utf-8$/i.test(response.headers['content-type'] ?? ''),
      'ANL-EXPORT-FORMAT',
      'The export is not text/csv; charset=utf-8',
      `Content-Type ${response.headers['content-type']}`,
      response.exchange,
    );
    const rows = parseCsv(response.text);
    ctx.require(
      rows !== null,
      'ANL-EXPORT-FORMAT',
      'The export is not RFC 4180 CSV with CRLF line ends',
      () => JSON.stringify(response.text.slice(0, 300)),
      response.exchange,
    );
    ctx.require(
      rows.length > 0 && rows[0]!.join(',') === HEADER,
      'ANL-EXPORT-CSV-30D',
      'The export has no (or another) header row',
      `first row ${JSON.stringify(rows[0])}`,
      response.exchange,
    );
    const ragged = rows.findIndex((row) => row.length !== rows[0]!.length);
    ctx.expect(
      ragged < 0,
      'ANL-EXPORT-FORMAT',
      'A CSV row has another number of fields than the header',
      `row ${ragged}: ${JSON.stringify(rows[ragged])}`,
      response.exchange,
    );
    const ids = rows.slice(1).map((row) => row[0]);
    ctx.addCases(ids.length);
    ctx.expect(
      !ids.includes(old.payment.id),
      'ANL-EXPORT-CSV-30D',
      'The export includes a payment older than 30 days',
      `payment ${old.payment.id} was created 31 days ago`,
      response.exchange,
    );
    ctx.expect(
      ids.join(',') === [second.payment.id, first.payment.id].join(','),
      'ANL-EXPORT-ORDER',
      'The export is not the last 30 days newest first',
      `expected ${second.payment.id}, ${first.payment.id}; got ${ids.join(', ')}`,
      response.exchange,
    );
    const row = rows.find((r) => r[0] === first.payment.id);
    const title = row?.[HEADER.split(',').indexOf('title')];
    ctx.expect(
      title === tricky.title,
      'ANL-EXPORT-FORMAT',
      'A title with quotes, comma and line break does not survive the CSV',
      `exported title ${JSON.stringify(title)}`,
      response.exchange,
    );
  },
});
