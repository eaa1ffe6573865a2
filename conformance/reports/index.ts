// One writer per format, all fed the same (already scrubbed) RunResult.
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { ReportFormat } from '../defaults.ts';
import type { RunResult } from '../types.ts';
import { renderConsoleSummary } from './console.ts';
import { renderHtml } from './html.ts';
import { renderJson } from './json.ts';
import { renderJunit } from './junit.ts';
import { renderMarkdown } from './markdown.ts';
import { renderNdjsonSummary } from './ndjson.ts';

type FileFormat = Exclude<ReportFormat, 'console' | 'ndjson'>;

export const REPORT_FILES: Record<FileFormat, { file: string; render: (result: RunResult) => string }> = {
  json: { file: 'conformance.json', render: renderJson },
  junit: { file: 'junit.xml', render: renderJunit },
  md: { file: 'conformance.md', render: renderMarkdown },
  html: { file: 'conformance.html', render: renderHtml },
};

export interface WriteReportsOptions {
  /** The JSON report goes to `write` (stdout) instead of a file: no --report-dir and neither console nor ndjson chosen. */
  jsonToStdout?: boolean;
  /** Where lines about written files go when stdout carries machine output (default: nowhere). */
  note?: (text: string) => void;
  /** Exit code of the run, for the ndjson summary event. */
  exitCode?: number;
}

/** Stdout carries one thing: the console report, the ndjson stream or (no --report-dir, JSON chosen) the JSON report. */
export function jsonGoesToStdout(formats: ReportFormat[], reportDirExplicit: boolean): boolean {
  return !reportDirExplicit && formats.includes('json') && !formats.includes('console') && !formats.includes('ndjson');
}

export async function writeReports(
  result: RunResult,
  formats: ReportFormat[],
  reportDir: string,
  write: (text: string) => void,
  settings: WriteReportsOptions = {},
): Promise<string[]> {
  const files: string[] = [];
  const fileFormats = formats.filter((f): f is FileFormat => f !== 'console' && f !== 'ndjson' && !(f === 'json' && settings.jsonToStdout));
  if (fileFormats.length > 0) await mkdir(reportDir, { recursive: true });
  for (const format of fileFormats) {
    const { file, render } = REPORT_FILES[format];
    const path = join(reportDir, file);
    await writeFile(path, render(result), 'utf8');
    files.push(path);
  }
  if (formats.includes('console')) {
    if (files.length) write(`\nreports: ${files.join(', ')}\n`);
    write(renderConsoleSummary(result));
  } else if (files.length) settings.note?.(`reports: ${files.join(', ')}\n`);
  if (settings.jsonToStdout) write(renderJson(result));
  if (formats.includes('ndjson')) write(renderNdjsonSummary(result, settings.exitCode ?? 0));
  return files;
}
