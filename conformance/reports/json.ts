// Machine-readable report: the whole RunResult, including seeds and fast-check replay paths.
import type { RunResult } from '../types.ts';

export const JSON_REPORT_SCHEMA_VERSION = 1;

export function renderJson(result: RunResult): string {
  return `${JSON.stringify({ schemaVersion: JSON_REPORT_SCHEMA_VERSION, ...result }, null, 2)}\n`;
}
