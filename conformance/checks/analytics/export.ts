// GET /v1/analytics/export: a CSV of the payments of the last 30 days (documented). A fresh merchant makes a
// payment, the clock moves 31 days on, and two more are made: only those two are exported. The columns are not
// shown, so a payment's row is found by its id or externalId in any column; RFC 4180 with CRLF, the header row,
// the order and a title surviving quoting are our choices and warn.
import type { CheckContext } from '../../context.ts';
import { defineCheck } from '../../registry.ts';
import { evidenceOf } from '../../premises/discover/evidence.ts';
import { acceptedAmount } from '../../support/amounts.ts';
import { createPayment, uniqueExternalId } from '../../support/payments.ts';

const HEADER =
  'id,createdAt,status,amount,currency,serviceFee,merchantFee,externalId,title,chainId,token,exchangeRate,amountToken,txHash,paidAt';

/**
 * RFC 4180 parser: null when the text breaks the grammar (bare quote, LF without CR, ...). `lenient` also takes a lone
 * LF as a line end, as most CSV readers do (CRLF is RFC 4180's, and our choice).
 */
export function parseCsv(text: string, lenient = false): string[][] | null {
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
    if (lenient && text[i] === '\n') {
      i += 1;
      rows.push(row);
      row = [];
      continue;
    }
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
  title: 'The analytics export is a CSV covering the last 30 days (RFC 4180 with our header row, newest first, assumed)',
  requirements: ['ANL-EXPORT-CSV-30D', 'ANL-EXPORT-FORMAT', 'ANL-EXPORT-ORDER'],
  level: 'documented',
  needs: [],
  tags: ['analytics', 'clock'],
  resources: { exclusive: ['clock', 'main-merchant-books'] },
  premises: ['analytics.export-query', 'payments.minimum-amounts'],
  async run(ctx: CheckContext) {
    // A fresh merchant with the control API; else the main merchant, whose earlier payments all fall out of the
    // 30-day window when the clock (libfaketime) moves 31 days.
    if (!ctx.canMoveClock) ctx.notExercised('no control API and no clock the suite can move');
    const api = ctx.services.control ? (await ctx.newMerchant('export')).api : ctx.api;
    const old = await createPayment(api, {
      amount: await acceptedAmount(ctx, 'EUR', '12.00'),
      currency: 'EUR',
      externalId: uniqueExternalId('csvold'),
    });
    ctx.requireStatus(old, 201, 'ANL-EXPORT-CSV-30D', 'Setup: create');
    await ctx.advanceClock(31 * 86_400_000);
    const tricky = {
      amount: await acceptedAmount(ctx, 'GBP', '13.50'),
      currency: 'GBP',
      title: 'Order "42", 2 lines\r\nsecond line',
      externalId: uniqueExternalId('csv'),
    };
    const first = await createPayment(api, tricky);
    ctx.requireStatus(first, 201, 'ANL-EXPORT-CSV-30D', 'Setup: create');
    // Two creates in one millisecond may sort either way (createdAt ties break on id), so the
    // expected order is made unambiguous in time.
    await ctx.advanceClock(1000);
    const second = await createPayment(api, {
      amount: await acceptedAmount(ctx, 'JPY', '5000'),
      currency: 'JPY',
      externalId: uniqueExternalId('csvnew'),
    });
    ctx.requireStatus(second, 201, 'ANL-EXPORT-CSV-30D', 'Setup: create');

    // The query parameters are not shown: the run's (none by default, or the profile's analytics.exportQuery).
    const query = await ctx.premise('analytics.export-query');
    const response = await api.request({ method: 'GET', path: '/v1/analytics/export', query, headers: { accept: 'text/csv' } });
    if (response.status >= 200 && response.status < 300)
      ctx.confirmPremise(
        'analytics.export-query',
        query,
        evidenceOf('GET', '/v1/analytics/export', Object.keys(query).length ? query : undefined, response),
      );
    ctx.requireStatus(response, '2xx', 'ANL-EXPORT-CSV-30D', 'GET /v1/analytics/export does not answer');
    ctx.addCases();
    ctx.expect(
      /^text\/csv\s*;\s*charset=utf-8$/i.test(response.headers['content-type'] ?? ''),
      'ANL-EXPORT-FORMAT',
      'The export is not text/csv; charset=utf-8',
      `Content-Type ${response.headers['content-type']}`,
      response.exchange,
    );
    const strict = parseCsv(response.text);
    ctx.expect(
      strict !== null,
      'ANL-EXPORT-FORMAT',
      'The export is not RFC 4180 CSV with CRLF line ends',
      () => JSON.stringify(response.text.slice(0, 300)),
      response.exchange,
    );
    const rows = strict ?? parseCsv(response.text, true);
    ctx.require(
      rows !== null,
      'ANL-EXPORT-CSV-30D',
      'The export is not CSV',
      () => JSON.stringify(response.text.slice(0, 300)),
      response.exchange,
    );
    ctx.expect(
      rows.length > 0 && rows[0]!.join(',') === HEADER,
      'ANL-EXPORT-FORMAT',
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

    // The columns are not shown: a payment's row is the one naming its id or its externalId, in any column.
    const rowOf = (payment: { id: string; externalId?: string | null }) =>
      rows.findIndex((row) => row.includes(payment.id) || (payment.externalId ? row.includes(payment.externalId) : false));
    const [oldRow, firstRow, secondRow] = [old.payment, first.payment, second.payment].map(rowOf);
    ctx.addCases(rows.length);
    ctx.require(
      firstRow! >= 0 || secondRow! >= 0,
      'ANL-EXPORT-FORMAT',
      'No export row names a payment by its id or externalId',
      () => `${rows.length} rows; none holds ${second.payment.id} or ${first.payment.id}: ${JSON.stringify(response.text.slice(0, 300))}`,
      response.exchange,
    );
    ctx.expect(
      oldRow! < 0,
      'ANL-EXPORT-CSV-30D',
      'The export includes a payment older than 30 days',
      `payment ${old.payment.id} was created 31 days ago; it is row ${oldRow}`,
      response.exchange,
    );
    ctx.expect(
      firstRow! >= 0 && secondRow! >= 0,
      'ANL-EXPORT-CSV-30D',
      'The export misses a payment of the last 30 days',
      `payments ${second.payment.id} (row ${secondRow}) and ${first.payment.id} (row ${firstRow}) were created in the last 30 days`,
      response.exchange,
    );
    const header = rows[0]!.map((name) => name.trim().toLowerCase());
    const idColumn = header.indexOf('id');
    const ids = idColumn >= 0 ? rows.slice(1).map((row) => row[idColumn]) : [];
    ctx.expect(
      ids.join(',') === [second.payment.id, first.payment.id].join(','),
      'ANL-EXPORT-ORDER',
      'The export is not the last 30 days newest first',
      `expected ${second.payment.id}, ${first.payment.id}; got ${ids.join(', ')}`,
      response.exchange,
    );
    // The title column by name, wherever it stands.
    const titleColumn = header.indexOf('title');
    const title = firstRow! >= 0 && titleColumn >= 0 ? rows[firstRow!]![titleColumn] : undefined;
    ctx.expect(
      title === tricky.title,
      'ANL-EXPORT-FORMAT',
      'A title with quotes, comma and line break does not survive the CSV',
      `exported title ${JSON.stringify(title)}`,
      response.exchange,
    );
  },
});
