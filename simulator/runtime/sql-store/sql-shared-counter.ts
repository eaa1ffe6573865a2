// Rate-limit windows shared by every process on one database (migration 4): a count is one row per key and window,
// incremented and read back in one statement, so two processes never both see the same count. A key's earlier
// windows are deleted when its next window opens (per key: merchants' clocks may stand far apart), not awaited.
import type { SharedWindowCounter } from '../../core/rate-limit/index.ts';
import type { SqlQueries } from './sql-client.ts';

export class SqlWindowCounter implements SharedWindowCounter {
  constructor(private readonly db: SqlQueries) {}

  async increment(key: string, windowStart: number): Promise<number> {
    const { rows } = await this.db.query<{ count: number }>(
      `INSERT INTO rate_limit_counters (key, window_start, count) VALUES ($1, $2, 1)
       ON CONFLICT (key, window_start) DO UPDATE SET count = rate_limit_counters.count + 1 RETURNING count`,
      [key, windowStart],
    );
    const count = Number(rows[0]?.count ?? 0);
    if (count === 1)
      void this.db.query('DELETE FROM rate_limit_counters WHERE key = $1 AND window_start < $2', [key, windowStart]).catch(() => undefined);
    return count;
  }
}
