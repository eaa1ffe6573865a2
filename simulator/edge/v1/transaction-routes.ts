// GET /v1/transactions: the cursor-paginated settlement ledger.
import { Hono } from 'hono';
import type { AppEnv } from '../http/context.ts';
import { validationError } from '../http/errors.ts';
import { envelope, parseListQuery } from '../http/list-query.ts';
import { Problems } from '../../core/validation/problems.ts';
import type { TransactionList } from '@stablepay/contract/types';
import type { Ledger } from '../../core/transactions/ledger.ts';
import { transactionView } from '../../core/transactions/ledger.ts';

export function transactionRoutes({ ledger }: { ledger: Ledger }): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  app.get('/', (c) => {
    const problems = new Problems();
    const { cursor, limit } = parseListQuery(c, problems);
    problems.throwIfAny();
    const page = ledger.list(c.get('merchantId'), cursor, limit);
    if (!page) throw validationError([{ path: ['cursor'], message: 'cursor is not the id of one of your transactions' }]);
    return c.json(envelope(page.items.map(transactionView), page.hasMore) satisfies TransactionList, 200);
  });
  return app;
}
