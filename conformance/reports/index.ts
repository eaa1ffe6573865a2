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

export const REPORT_FILES: Record<Exclude<ReportFormat, 'console'>, { file: string; render: (result: RunResult) => string }> = {
  json: { file: 'conformance.json', render: renderJson },
  junit: { file: 'junit.xml', render: renderJunit },
  md: { file: 'conformance.md', render: renderMarkdown },
  html: { file: 'conformance.html', render: renderHtml },
};

export async function writeReports(result: RunResult, formats: ReportFormat[], reportDir: string, write: (text: string) => void): Promise<string[]> {
  const files: string[] = [];
  const fileFormats = formats.filter((f): f is Exclude<ReportFormat, 'console'> => f !== 'console');
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
  }
  return files;
}
