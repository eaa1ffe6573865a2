// Cross-cutting: every response the suite received from the service (errors included) carries
// X-RateLimit-Limit, X-RateLimit-Remaining and X-RateLimit-Reset as integers, Remaining <= Limit.
import type { CheckContext } from '../../context.ts';
import { defineCheck } from '../../registry.ts';
import { isV1Exchange } from '../versioning/path-prefix.ts';

const HEADERS = ['x-ratelimit-limit', 'x-ratelimit-remaining', 'x-ratelimit-reset'];

export const rateLimitHeaders = defineCheck({
  id: 'rate-limit.headers-every-response',
  title: 'Every response of the run carries integer X-RateLimit-Limit/Remaining/Reset headers',
  requirements: ['RL-HEADERS-EVERY-RESPONSE', 'RL-HEADER-REMAINING'],
  level: 'documented',
  needs: [],
  tags: ['cross-cutting', 'rate-limit'],
  async run(ctx: CheckContext) {
    // Every /v1 operation (RL-FIXED-WINDOW-PER-KEY); versioning.path-prefix-v1 probes paths outside /v1 on purpose.
    const exchanges = ctx.services.recorder
      .all('service')
      .filter((e) => e.status !== null && e.checkId !== ctx.check.id && isV1Exchange(e, ctx.options.baseUrl));
    if (exchanges.length === 0) ctx.notExercised('no service responses were recorded (run it with other checks)');
    ctx.judged('RL-HEADERS-EVERY-RESPONSE', 'RL-HEADER-REMAINING');
    const broken = new Map<string, { count: number; exchange: (typeof exchanges)[number]; requirement: string }>();
    for (const exchange of exchanges) {
      ctx.addCases();
      const h = exchange.responseHeaders;
      const problems = HEADERS.filter((name) => !/^\d+$/.test(h[name] ?? '')).map(
        (name) => `${name} ${h[name] === undefined ? 'missing' : `"${h[name]}" not an integer`}`,
      );
      if (!problems.length && Number(h['x-ratelimit-remaining']) > Number(h['x-ratelimit-limit'])) problems.push('Remaining exceeds Limit');
      if (!problems.length) continue;
      const key = `${exchange.method} ${exchange.status}: ${problems.join(', ')}`;
      const requirement =
        problems.length === 1 && problems[0] === 'Remaining exceeds Limit' ? 'RL-HEADER-REMAINING' : 'RL-HEADERS-EVERY-RESPONSE';
      const entry = broken.get(key);
      if (entry) entry.count++;
      else broken.set(key, { count: 1, exchange, requirement });
    }
    for (const [key, { count, exchange, requirement }] of broken) {
      ctx.findings.push({
        requirement,
        title: 'Rate-limit headers missing or malformed',
        message: `${key} (${count} of ${exchanges.length} responses; first in check ${exchange.checkId}: ${exchange.method} ${new URL(exchange.url).pathname})`,
        ...ctx.evidence(exchange),
        occurrences: count,
      });
    }
  },
});
