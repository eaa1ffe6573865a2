// A child process for the SIGKILL test of the SQL store on PGlite (runtime/sql-store/pglite-crash.test.ts): opens
// the store in the directory given, then inserts payments and moves every other one forward, one at a time, printing
// one line per acknowledged write ("insert <id>" or "replace <id> <status>") until it is killed.
import { randomUUID } from 'node:crypto';
import { openPglite } from '../runtime/sql-store/pglite-client.ts';
import { migrate } from '../runtime/sql-store/schema.ts';
import { SqlPaymentRepository } from '../runtime/sql-store/sql-payment-repository.ts';
import { payment } from './payment-repository-contract.ts';

const dir = process.argv[2];
if (!dir) throw new Error('usage: pglite-writer.ts <dataDir>');
const db = await openPglite(dir);
await migrate(db);
const store = new SqlPaymentRepository(db);
process.stdout.write('ready\n');
const merchant = 'crash-merchant';
for (let i = 0; ; i += 1) {
  const p = payment(merchant, { id: randomUUID(), externalId: `order-${randomUUID()}`, createdAt: Date.now() });
  if (!(await store.insert(p)).ok) throw new Error('insert refused');
  process.stdout.write(`insert ${p.id}\n`);
  if (i % 2 === 0) {
    const next = { ...p, status: 'PROCESSING' as const, updatedAt: p.updatedAt + 1 };
    if (!(await store.replace(p, next))) throw new Error('replace refused');
    process.stdout.write(`replace ${p.id} PROCESSING\n`);
  }
}
