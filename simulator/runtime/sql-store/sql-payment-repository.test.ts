// The Postgres-dialect store on embedded PGlite: the contract every payment store keeps (in memory here, so the
// file's tests share one database), then what only a database on disk shows: a reopened directory has every
// acknowledged payment and applies no migration twice. PGlite's first start runs initdb: seconds on a loaded machine.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { payment, paymentRepositoryContract } from '../../test-support/payment-repository-contract.ts';
import { DatabaseOpenError, openPglite } from './pglite-client.ts';
import { migrate } from './schema.ts';
import { SqlPaymentRepository } from './sql-payment-repository.ts';

const SLOW = 240_000;
let repo: SqlPaymentRepository;

beforeAll(async () => {
  const db = await openPglite();
  expect(await migrate(db)).toEqual([1, 2, 3, 4, 5, 6]);
  repo = new SqlPaymentRepository(db);
}, SLOW);
afterAll(async () => {
  await repo?.close();
});

paymentRepositoryContract('PGlite', () => repo);

describe('the SQL store on a PGlite directory', () => {
  it(
    'a reopened directory has every acknowledged payment, its externalId still held, and migrates nothing twice',
    async () => {
      const dir = mkdtempSync(join(tmpdir(), 'stablepay-pglite-'));
      try {
        const first = await openPglite(dir);
        expect(await migrate(first)).toEqual([1, 2, 3, 4, 5, 6]);
        const store = new SqlPaymentRepository(first);
        const merchant = 'merchant-on-disk';
        const made = [payment(merchant, { externalId: 'order-9' }), payment(merchant), payment(merchant)];
        for (const p of made) expect(await store.insert(p)).toEqual({ ok: true });
        const processing = { ...made[1]!, status: 'PROCESSING' as const, updatedAt: made[1]!.updatedAt + 1 };
        expect(await store.replace(made[1]!, processing)).toBe(true);
        await store.close();

        const second = await openPglite(dir);
        expect(await migrate(second)).toEqual([]);
        const again = new SqlPaymentRepository(second);
        try {
          expect(await again.get(made[0]!.id)).toEqual(made[0]);
          expect(await again.get(made[1]!.id)).toEqual(processing);
          expect(await again.insert(payment(merchant, { externalId: 'order-9' }))).toEqual({ ok: false, holder: made[0]!.id });
        } finally {
          await again.close();
        }
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    },
    SLOW,
  );

  it(
    'a data directory that is a file is one sentence naming it',
    async () => {
      const dir = mkdtempSync(join(tmpdir(), 'stablepay-pglite-'));
      const file = join(dir, 'not-a-dir');
      writeFileSync(file, 'x');
      try {
        const error = await openPglite(file).then(
          () => undefined,
          (e: unknown) => e,
        );
        expect(error).toBeInstanceOf(DatabaseOpenError);
        expect((error as Error).message).toMatch(new RegExp(`^cannot open the database in ${file.replace(/[/.]/g, '\\$&')}: .+`));
        expect((error as Error).message).not.toContain('\n');
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    },
    SLOW,
  );
});
