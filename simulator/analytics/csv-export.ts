// RFC 4180 CSV of payments: CRLF line ends, a header row, fields quoted when they hold a comma,
// a double quote, CR or LF (quotes doubled). Nulls are empty fields. Text a spreadsheet would run
// as a formula (OWASP CSV injection: a cell starting with =, +, -, @, tab or CR) gets a leading
// single quote, so a payment titled =HYPERLINK(...) opens as text.
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

const FORMULA_START = /^[=+\-@\t\r]/;

export function csvField(value: string | number | null): string {
  if (value === null) return '';
  const raw = String(value);
  const text = FORMULA_START.test(raw) ? `'${raw}` : raw;
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

const iso = (ms: number | null): string | null => (ms === null ? null : new Date(ms).toISOString());

function row(p: Payment): (string | number | null)[] {
  return [p.id, iso(p.createdAt), p.status, p.amount, p.currency, p.serviceFee, p.merchantFee, p.externalId, p.title, p.chainId, p.token, p.exchangeRate, p.amountToken, p.txHash, iso(p.paidAt)];
}

export function paymentsCsv(payments: Iterable<Payment>): string {
  const lines = [CSV_COLUMNS.join(',')];
  for (const p of payments) lines.push(row(p).map(csvField).join(','));
  return `${lines.join('\r\n')}\r\n`;
}
