// `--format ndjson`: one JSON object per line on stdout while the run goes, for machines that want to follow a run
// (one `check` event per finished check, with its whole result) rather than wait for the JSON report.
// Events: start, check, stopped (--max-failures), summary (last line: counts, coverage, premises, exit code).
import type { ProgressEvent } from '../options.ts';
import type { RunResult } from '../types.ts';
import type { SecretRegistry } from '../http/redact.ts';

export const NDJSON_SCHEMA_VERSION = 1;

export function ndjsonProgress(write: (text: string) => void, secrets?: SecretRegistry): (event: ProgressEvent) => void {
  const line = (value: unknown) => write(`${JSON.stringify(secrets ? secrets.scrubValue(value) : value)}\n`);
  return (event) => {
    if (event.type === 'start') {
      line({
        type: 'start',
        schemaVersion: NDJSON_SCHEMA_VERSION,
        total: event.total,
        seed: event.seed,
        capabilities: event.capabilities,
        notes: event.notes,
        limits: event.limits,
      });
    } else if (event.type === 'check-end') {
      // The stack of an `error` result goes to the JSON report only; the stream carries its message.
      const { error, ...result } = event.result;
      line({ type: 'check', index: event.index, total: event.total, ...result, ...(error ? { error: { message: error.message } } : {}) });
    } else if (event.type === 'stopped') {
      line({ type: 'stopped', reason: event.reason, remaining: event.remaining });
    }
  };
}

export function renderNdjsonSummary(result: RunResult, exitCode: number): string {
  return `${JSON.stringify({ type: 'summary', exitCode, summary: result.summary, coverage: result.coverage, premises: result.premises, ...(result.gate ? { gate: result.gate } : {}) })}\n`;
}
