// The two log formats of `stablepay start --log-format`: `pretty`, one aligned line a person reads
// in a terminal, and `json`, one JSON object per line for tools (jq, a log shipper).
import type { LogRecord } from './log-records.ts';

export const LOG_FORMATS = ['pretty', 'json'] as const;
export type LogFormat = (typeof LOG_FORMATS)[number];

// Date#toISOString costs about a microsecond, and under load many lines share a millisecond: the last one is kept.
let lastMs = NaN;
let lastIso = '';
function isoOf(now: Date): string {
  const ms = now.getTime();
  if (ms !== lastMs) {
    lastIso = now.toISOString();
    lastMs = ms;
  }
  return lastIso;
}

/** One line, without the trailing newline. `now` is the wall-clock time of the line. */
export function formatRecord(record: LogRecord, format: LogFormat, now: Date): string {
  if (format === 'json') return JSON.stringify({ time: isoOf(now), ...record });
  const time = isoOf(now).slice(11, 23);
  if (record.kind === 'request') {
    return `${time} ${record.method.padEnd(6)} ${record.path} ${record.status} ${record.ms}ms${record.merchant ? ` merchant=${record.merchant}` : ''}`;
  }
  const subject = record.paymentId ? ` payment=${record.paymentId}` : record.payoutId ? ` payout=${record.payoutId}` : '';
  const answer = record.statusCode !== null ? String(record.statusCode) : 'no answer';
  const error = record.error && record.statusCode === null ? ` (${record.error})` : '';
  const next =
    record.outcome === 'retrying'
      ? ` -> retry at ${record.nextAttemptAt}`
      : record.outcome === 'failed'
        ? ' -> failed, no more attempts'
        : '';
  const chaos = record.chaos && record.chaos.length > 0 ? ` chaos=${record.chaos.join('+')}` : '';
  return `${time} webhook ${record.event}${subject} delivery=${record.deliveryId} attempt ${record.attempt} -> ${record.url} ${answer}${error} ${record.ms}ms merchant=${record.merchant}${next}${chaos}`;
}

/** A sink that writes formatted lines (stdout by default). */
export function lineSink(format: LogFormat, write: (line: string) => void = (line) => process.stdout.write(`${line}\n`)) {
  return (record: LogRecord) => write(formatRecord(record, format, new Date()));
}
