// Both contract documents are valid OpenAPI 3.1, lint clean, and the generated types match them.
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import SwaggerParser from '@apidevtools/swagger-parser';
import { describe, expect, it } from 'vitest';
import { controlApiPath, openapiPath } from './paths.ts';

const run = promisify(execFile);
const root = fileURLToPath(new URL('..', import.meta.url));

describe('contract documents', () => {
  it.each([
    ['openapi.yaml', openapiPath],
    ['conformance/control-api.yaml', controlApiPath],
  ])('%s is a valid OpenAPI 3.1 document', async (_name, path) => {
    const api = (await SwaggerParser.validate(path)) as { openapi: string };
    expect(api.openapi).toBe('3.1.0');
  });

  it('passes redocly lint with no errors and no warnings', async () => {
    const redocly = `${root}node_modules/.bin/redocly`;
    const args = ['lint', '--config', 'redocly.yaml', 'openapi.yaml', 'conformance/control-api.yaml', '--format=json'];
    const env = { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true' };
    const result = await run(redocly, args, { cwd: root, env, maxBuffer: 32 * 1024 * 1024 }).catch((error: { stdout?: string }) => ({
      stdout: error.stdout ?? '',
    }));
    // One JSON report per document, printed back to back.
    const reports = JSON.parse(`[${result.stdout.trim().replace(/}\s*{(?=\s*"totals")/g, '},{')}]`) as {
      totals: { errors: number; warnings: number };
      problems: { ruleId: string; message: string; location: { pointer: string }[] }[];
    }[];
    expect(reports).toHaveLength(2);
    const problems = reports.flatMap((r) => r.problems.map((p) => `${p.ruleId}: ${p.message} at ${p.location[0]?.pointer ?? '?'}`));
    expect(problems).toEqual([]);
    for (const report of reports) expect(report.totals).toMatchObject({ errors: 0, warnings: 0 });
  });

  it('has generated types that match the documents', async () => {
    const result = await run(process.execPath, ['scripts/generate-types.mjs', '--check'], { cwd: root }).catch(
      (error: { stderr?: string; code?: number }) => ({ stdout: '', stderr: error.stderr ?? '', code: error.code }),
    );
    expect('code' in result ? result.stderr : '').toBe('');
  });
});
