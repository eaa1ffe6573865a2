// RFC 4180 CSV of payments: CRLF line ends, a header row, fields quoted when they hold a comma,
// a double quote, CR or LF (quotes doubled). Nulls are empty fields. Text a spreadsheet would run
// as a formula (OWASP CSV injection: a cell starting with =, +, -, @, tab, CR or LF; | for DDE; any
// of them, or the full-width forms some spreadsheets also read, after leading spaces, which
// spreadsheets skip) gets a leading single quote, so a payment titled =HYPERLINK(...) opens as text.
//
// The export is streamed: rows are formatted a chunk at a time as the reader pulls, so the first
// bytes leave after one chunk's work and no whole file is ever held in memory.
import type { Payment } from '../payments/types.ts';

export const CSV_COLUMNS = [
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

const FORMULA_START = /^[\t\r\n]|^[\s\u00a0\u3000]*[=+\-@|\uff1d\uff0b\uff0d\uff20]/;

export function csvField(value: string | number | null): string {
  if (value === null) return '';
  const raw = String(value);
  const text = FORMULA_START.test(raw) ? `'${raw}` : raw;
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

const iso = (ms: number | null): string | null => (ms === null ? null : new Date(ms).toISOString());

function row(p: Payment): (string | number | null)[] {
  return [
    p.id,
    iso(p.createdAt),
    p.status,
    p.amount,
    p.currency,
    p.serviceFee,
    p.merchantFee,
    p.externalId,
    p.title,
    p.chainId,
    p.token,
    p.exchangeRate,
    p.amountToken,
    p.txHash,
    iso(p.paidAt),
  ];
}

const csvLine = (p: Payment): string => `${row(p).map(csvField).join(',')}\r\n`;
const HEADER_LINE = `${CSV_COLUMNS.join(',')}\r\n`;

export function paymentsCsv(payments: Iterable<Payment>): string {
  let text = HEADER_LINE;
  for (const p of payments) text += csvLine(p);
  return text;
}

/**
 * Rows formatted per pull of the reader: as many rows as the largest list page, about 13 KB, under
 * the 16 KiB a Node stream buffers by default. The work before the first byte, and in each
 * pull, is about that of one page.
 */
export const CSV_ROWS_PER_CHUNK = 100;

/**
 * The same text as paymentsCsv, as a byte stream that reads `payments` lazily: each pull formats
 * at most `rowsPerChunk` rows, so the work done before the first byte is one chunk's, and a reader
 * that stops (a closed connection) stops the formatting.
 */
export function paymentsCsvStream(payments: Iterable<Payment>, rowsPerChunk = CSV_ROWS_PER_CHUNK): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  const iterator = payments[Symbol.iterator]();
  let header = true;
  let cancelled = false;
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      // Between chunks the event loop turns, so other requests are served while a long export is
      // written: a reader in a hurry would otherwise run every chunk in one chain of promise jobs.
      if (!header) await new Promise((resolve) => setImmediate(resolve));
      if (cancelled) return;
      let text = header ? HEADER_LINE : '';
      header = false;
      for (let n = 0; n < rowsPerChunk; n += 1) {
        const next = iterator.next();
        if (next.done) {
          if (text) controller.enqueue(encoder.encode(text));
          controller.close();
          return;
        }
        text += csvLine(next.value);
      }
      controller.enqueue(encoder.encode(text));
    },
    cancel() {
      cancelled = true;
      iterator.return?.();
    },
  });
}
