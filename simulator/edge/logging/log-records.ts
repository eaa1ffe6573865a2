// What the simulator logs while it runs: one record per HTTP request and one per webhook delivery
// attempt. Records carry ids and outcomes, never credentials: no API key, no webhook secret, no
// request body, and of a receiver URL only its origin and path (a query string may hold a token).
import type { AttemptReport } from '../../core/webhooks/dispatcher.ts';

export interface RequestRecord {
  kind: 'request';
  method: string;
  /** Path without the query string. */
  path: string;
  status: number;
  ms: number;
  /** The merchant of the API key used, when the key was valid. */
  merchant: string | null;
}

/** One finished webhook attempt, as the dispatcher reports it (no secret, no body). */
export interface DeliveryAttemptRecord extends AttemptReport {
  kind: 'delivery';
}

export type LogRecord = RequestRecord | DeliveryAttemptRecord;

/** Where records go; chosen at the composition root (stdout, a test array, nowhere). */
export type LogSink = (record: LogRecord) => void;

/** The part of a receiver URL that is safe to print. */
export function printableUrl(url: string): string {
  try {
    const parsed = new URL(url);
    return `${parsed.origin}${parsed.pathname}`;
  } catch {
    return '(invalid URL)';
  }
}
