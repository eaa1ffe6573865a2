// Machine-readable report: the whole RunResult, including the run seed, fast-check replay paths and replay recipes.
import type { RunResult } from '../types.ts';

/**
 * 2: one seed per run (`fastCheck.seed` and the long `fastCheck.replay` line gone, `fastCheck.property` added), and
 * `checks[].replay` (the replay recipe) and `failures[].exchange` (the call as sent and answered) added.
 */
export const JSON_REPORT_SCHEMA_VERSION = 2;

export function renderJson(result: RunResult): string {
  return `${JSON.stringify({ schemaVersion: JSON_REPORT_SCHEMA_VERSION, ...result }, null, 2)}\n`;
}
