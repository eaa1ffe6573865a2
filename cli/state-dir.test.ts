// `stablepay start --state-dir` on a state dir it cannot read: one sentence naming the file and line, exit 2.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Journal, JOURNAL_FILE } from '@stablepay/simulator/persistence';
import { runBin } from './test-support/run-bin.ts';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'stablepay-state-dir-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe('stablepay start --state-dir', () => {
  it('on a corrupted state dir: one sentence naming the file and line, exit 2', async () => {
    const journal = await Journal.open(dir);
    journal.put('merchant', 'm1', { id: 'm1' });
    await journal.commit();
    await journal.close();
    const path = join(dir, JOURNAL_FILE);
    writeFileSync(path, `garbage\n${readFileSync(path, 'utf8')}`);
    const result = await runBin(['start', '--no-chains', '--port', '0', '--no-demo-payment', '--state-dir', dir]);
    expect(result.code).toBe(2);
    expect(result.stderr.trim()).toBe(
      `stablepay start: state dir file ${path} is corrupted at line 1 (not a journal record); move the directory away or repair that line`,
    );
  });
});
