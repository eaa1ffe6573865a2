// What the X-RateLimit-* values mean, over sequential requests of one key: Limit stays the same
// within a window, Remaining drops by exactly 1 per request, Reset is a future Unix time in whole
// seconds, fixed within the window and no further away than the window length. With a control API
// the check uses a merchant of its own and a known window (PUT /control/v1/rate-limit, restored to
// the documented default afterwards), then advances the clock past Reset to see a fresh window.
// The default of 6000 requests / 60 s is an assumed requirement, judged on the first response.
import type { CheckContext } from '../../context.ts';
import { DEFAULTS } from '../../defaults.ts';
import type { HttpClient, HttpResponse } from '../../http/client.ts';
import { defineCheck } from '../../registry.ts';

const SEQUENCE = 6;
/** Window the check sets through the control API. */
const PROBE = { limit: 500, windowSeconds: 20 };
const DEFAULT = { limit: 6000, windowSeconds: 60 };
/** Clock tolerance (s) when comparing Reset with the implementation's time. */
const SLACK_SECONDS = 2;

interface Sample {
  limit: number;
  remaining: number;
  reset: number;
  nowSeconds: number;
  response: HttpResponse;
}

async function sample(ctx: CheckContext, api: HttpClient): Promise<Sample> {
  const response = await api.get('/v1/payments', { limit: 1 });
  ctx.addCases();
  const h = response.headers;
  const values = ['x-ratelimit-limit', 'x-ratelimit-remaining', 'x-ratelimit-reset'].map((name) => h[name] ?? '');
  if (!values.every((v) => /^\d+$/.test(v))) {
    ctx.notExercised(`no integer rate-limit headers on ${response.status} to judge (rate-limit.headers-every-response reports it)`);
  }
  const [limit, remaining, reset] = values.map(Number) as [number, number, number];
  return { limit, remaining, reset, nowSeconds: ctx.clock.now() / 1000, response };
}

function judgeReset(
  ctx: CheckContext,
  s: Sample,
  windowSeconds: number | null,
  requirement: 'RL-HEADER-RESET' | 'RL-DEFAULT-6000-60S',
): void {
  ctx.expect(
    s.reset < 1e11,
    'RL-HEADER-RESET',
    'X-RateLimit-Reset is not in Unix seconds',
    `X-RateLimit-Reset ${s.reset} looks like milliseconds`,
    s.response.exchange,
  );
  ctx.expect(
    s.reset >= Math.floor(s.nowSeconds) - SLACK_SECONDS,
    'RL-HEADER-RESET',
    'X-RateLimit-Reset is in the past',
    () =>
      `X-RateLimit-Reset ${s.reset} is ${Math.round(s.nowSeconds - s.reset)} s before the implementation's now (${Math.floor(s.nowSeconds)})`,
    s.response.exchange,
  );
  if (windowSeconds === null) return;
  ctx.expect(
    s.reset <= Math.ceil(s.nowSeconds) + windowSeconds + SLACK_SECONDS,
    requirement,
    'X-RateLimit-Reset is further away than the window length',
    () => `X-RateLimit-Reset ${s.reset} is ${Math.round(s.reset - s.nowSeconds)} s after now; the window is ${windowSeconds} s`,
    s.response.exchange,
  );
}

/** Sequential requests of one key: constant Limit, Remaining down by one, Reset fixed (one window change allowed). */
async function judgeSequence(
  ctx: CheckContext,
  api: HttpClient,
  windowSeconds: number | null,
  requirement: 'RL-HEADER-RESET' | 'RL-DEFAULT-6000-60S',
): Promise<Sample> {
  const samples: Sample[] = [];
  for (let i = 0; i < SEQUENCE; i++) samples.push(await sample(ctx, api));
  let windowChanges = 0;
  for (const [i, s] of samples.entries()) {
    judgeReset(ctx, s, windowSeconds, requirement);
    if (i === 0) continue;
    const before = samples[i - 1]!;
    ctx.expect(
      s.limit === before.limit,
      'RL-HEADER-LIMIT',
      'X-RateLimit-Limit changed between requests',
      `request ${i}: ${before.limit}, request ${i + 1}: ${s.limit}`,
      s.response.exchange,
    );
    if (s.reset === before.reset) {
      ctx.expect(
        s.remaining === before.remaining - 1,
        'RL-HEADER-REMAINING',
        'X-RateLimit-Remaining did not drop by exactly 1 per request',
        `sequential requests of one key in one window (Reset ${s.reset}): Remaining ${before.remaining} then ${s.remaining}`,
        s.response.exchange,
      );
      continue;
    }
    windowChanges++;
    // A new window: Reset moves forward and this request is its first.
    const fresh = s.reset > before.reset && s.remaining === s.limit - 1;
    ctx.expect(
      fresh && windowChanges === 1,
      'RL-HEADER-RESET',
      'X-RateLimit-Reset moved within a window',
      `request ${i}: Reset ${before.reset} Remaining ${before.remaining}; request ${i + 1}: Reset ${s.reset} Remaining ${s.remaining} (${windowChanges} changes in ${SEQUENCE} quick requests)`,
      s.response.exchange,
    );
  }
  return samples.at(-1)!;
}

export const rateLimitHeaderSemantics = defineCheck({
  id: 'rate-limit.header-semantics',
  title: 'X-RateLimit-Limit is constant, Remaining drops by 1 per request, Reset is a fixed future Unix time within the window',
  requirements: [
    'RL-HEADER-LIMIT',
    'RL-HEADER-REMAINING',
    'RL-HEADER-RESET',
    'RL-FIXED-WINDOW-PER-KEY',
    'RL-DEFAULT-6000-60S',
    'CTL-RATE-LIMIT',
  ],
  level: 'documented',
  needs: [],
  tags: ['rate-limit', 'header'],
  resources: { exclusive: ['clock', 'rate-limit-window'] },
  async run(ctx: CheckContext) {
    const api = ctx.services.control ? (await ctx.newMerchant('rate-limit headers')).api : ctx.api;
    if (ctx.services.control) await ctx.clock.refresh();

    // The default, on the first response of a key (the suite restores it after changing it).
    const first = await sample(ctx, api);
    ctx.expect(
      first.limit === DEFAULT.limit,
      'RL-DEFAULT-6000-60S',
      'X-RateLimit-Limit is not the default 6000',
      `X-RateLimit-Limit ${first.limit}`,
      first.response.exchange,
    );
    judgeReset(ctx, first, DEFAULT.windowSeconds, 'RL-DEFAULT-6000-60S');

    if (!ctx.services.control) {
      const last = await judgeSequence(ctx, api, first.limit === DEFAULT.limit ? DEFAULT.windowSeconds : null, 'RL-DEFAULT-6000-60S');
      if (ctx.canMoveClock) await expectFreshWindow(ctx, api, last, first.limit === DEFAULT.limit ? DEFAULT.windowSeconds : null);
      return;
    }
    ctx.onCleanup(
      async () => void (await ctx.control.setRateLimit(DEFAULTS.rateLimitRestore.limit, DEFAULTS.rateLimitRestore.windowSeconds)),
    );
    await ctx.control.setRateLimit(PROBE.limit, PROBE.windowSeconds);
    await ctx.clock.refresh();
    const last = await judgeSequence(ctx, api, PROBE.windowSeconds, 'RL-HEADER-RESET');
    ctx.expect(
      last.limit === PROBE.limit,
      'CTL-RATE-LIMIT',
      'X-RateLimit-Limit does not show the limit set through the control API',
      `set ${PROBE.limit}/${PROBE.windowSeconds} s, header ${last.limit}`,
      last.response.exchange,
    );

    await expectFreshWindow(ctx, api, last, PROBE.windowSeconds);
  },
});

/** Past Reset a new window starts: Remaining back to Limit - 1, Reset later by a window. */
async function expectFreshWindow(ctx: CheckContext, api: HttpClient, last: Sample, windowSeconds: number | null): Promise<void> {
  await ctx.clock.refresh();
  await ctx.advanceClock(Math.max(0, last.reset * 1000 - ctx.clock.now()) + 1000);
  await ctx.clock.refresh();
  const next = await sample(ctx, api);
  ctx.expect(
    next.reset > last.reset && next.remaining === next.limit - 1,
    'RL-FIXED-WINDOW-PER-KEY',
    'No fresh window after X-RateLimit-Reset',
    `before: Reset ${last.reset} Remaining ${last.remaining}; after advancing past Reset: Reset ${next.reset} Remaining ${next.remaining} of ${next.limit}`,
    next.response.exchange,
  );
  judgeReset(ctx, next, windowSeconds, 'RL-HEADER-RESET');
}
