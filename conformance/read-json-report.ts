// Reading a conformance report back (`stablepay replay`, `stablepay replay-delivery`): a report directory or its
// conformance.json, parsed, or one sentence saying why not.
import { existsSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { UsageError } from './usage-error.ts';

export function readJsonReport(source: string): { file: string; document: unknown } {
  let file = source;
  try {
    if (statSync(source).isDirectory()) file = join(source, 'conformance.json');
  } catch (error) {
    throw new UsageError(`${source}: cannot read (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`);
  }
  if (!existsSync(file)) throw new UsageError(`${file}: no JSON report there (run stablepay conformance with --format json)`);
  try {
    return { file, document: JSON.parse(readFileSync(file, 'utf8')) };
  } catch (error) {
    throw new UsageError(`${file}: not JSON (${(error as Error).message})`);
  }
}
