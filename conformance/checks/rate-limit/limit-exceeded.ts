// Exceeding the limit gives 429 with the rate-limit headers (Retry-After and the error body are
// assumed). With a control API the limit is lowered for the check (PUT /control/v1/rate-limit)
// and restored afterwards; without one the check spends up to rateLimitProbeBudget requests when
// X-RateLimit-Remaining shows the limit is that close (rateLimitBlackBoxBudget against a target the suite started
// itself), and is not exercised otherwise.
import type { ErrorBody } from '@stablepay/contract/types';
import type { CheckContext } from '../../context.ts';
import { DEFAULTS } from '../../defaults.ts';
import type { HttpClient, HttpResponse } from '../../http/client.ts';
import { defineCheck } from '../../registry.ts';
import type { Received } from '../../received.ts';
import { tallyWindows, type WindowTally } from './window-tally.ts';

/**
 * Requests in flight at once while spending a black-box run's limit. One at a time, its 6,000 took longer than the
 * 60 s window on a loaded machine, so the window reset twice and the check failed a correct limit. A limit the control
 * API lowered is spent one request at a time: there the 429 must come exactly after the limit.
 */
const IN_FLIGHT = 16;

async function hitUntil429(
  api: HttpClient,
  budget: number,
  inFlight = 1,
): Promise<{ refused: HttpResponse | undefined; sent: number; windows: WindowTally }> {
  let sent = 0;
  const answers: { status: number; remaining: string | undefined }[] = [];
  const windows = () => tallyWindows(answers, inFlight);
  while (sent < budget) {
    const batch = Math.min(inFlight, budget - sent);
    const responses = await Promise.all(Array.from({ length: batch }, () => api.get('/v1/payments', { limit: 1 })));
    answers.push(...responses.map((r) => ({ status: r.status, remaining: r.headers['x-ratelimit-remaining'] })));
    const first = responses.findIndex((response) => response.status === 429);
    if (first >= 0) return { refused: responses[first], sent: sent + first + 1, windows: windows() };
    sent += batch;
  }
  return { refused: undefined, sent, windows: windows() };
}

function checkRefusal(ctx: CheckContext, refused: HttpResponse): void {
  // The refusal is the 429 every operation gives past the limit (spec §7).
  ctx.judged('ERR-429-ALL');
  const h = refused.headers;
  ctx.expect(
    ['x-ratelimit-limit', 'x-ratelimit-remaining', 'x-ratelimit-reset'].every((name) => /^\d+$/.test(h[name] ?? '')),
    'RL-429-EXCEEDED',
    '429 lacks the rate-limit headers',
    () => JSON.stringify(h),
    refused.exchange,
  );
  ctx.expect(
    h['x-ratelimit-remaining'] === '0',
    'RL-429-EXCEEDED',
    '429 with X-RateLimit-Remaining above 0',
    `X-RateLimit-Remaining ${h['x-ratelimit-remaining']}`,
    refused.exchange,
  );
  ctx.expect(
    /^\d+$/.test(h['retry-after'] ?? ''),
    'RL-RETRY-AFTER',
    '429 without Retry-After (seconds)',
    `Retry-After ${h['retry-after']}`,
    refused.exchange,
  );
  const body = refused.json as Received<ErrorBody>;
  if (
    ctx.expect(
      body?.statusCode === 429 && typeof body.message === 'string' && typeof body.error === 'string',
      'ERR-BODY-SHAPE-OTHER-STATUSES',
      '429 body is not {statusCode, message, error}',
      () => refused.text.slice(0, 200),
      refused.exchange,
    )
  ) {
    ctx.expect(
      body.error === 'Too Many Requests',
      'ERR-REASON-PHRASES',
      "429 body's error is not the reason phrase Too Many Requests",
      `error ${JSON.stringify(body.error)}`,
      refused.exchange,
    );
  }
}

export const limitExceeded = defineCheck({
  id: 'rate-limit.limit-exceeded',
  title: 'Exceeding the rate limit gives 429 with the rate-limit headers; the window resets',
  requirements: [
    'RL-429-EXCEEDED',
    'ERR-429-ALL',
    'RL-RETRY-AFTER',
    'ERR-BODY-SHAPE-OTHER-STATUSES',
    'ERR-REASON-PHRASES',
    'RL-FIXED-WINDOW-PER-KEY',
  ],
  level: 'documented',
  needs: [],
  tags: ['rate-limit'],
  resources: { exclusive: ['clock', 'rate-limit-window'] },
  async run(ctx: CheckContext) {
    if (ctx.services.control) {
      const { api } = await ctx.newMerchant('rate limit');
      const limit = DEFAULTS.rateLimitProbeLimit;
      const windowSeconds = 60;
      ctx.onCleanup(
        async () => void (await ctx.control.setRateLimit(DEFAULTS.rateLimitRestore.limit, DEFAULTS.rateLimitRestore.windowSeconds)),
      );
      await ctx.control.setRateLimit(limit, windowSeconds);
      const { refused, sent } = await hitUntil429(api, limit * 4);
      ctx.addCases(sent);
      ctx.require(
        refused !== undefined,
        'RL-429-EXCEEDED',
        'No 429 after exceeding the limit',
        `limit set to ${limit}/${windowSeconds} s; ${sent} requests all succeeded`,
      );
      ctx.expect(
        sent === limit + 1,
        'RL-FIXED-WINDOW-PER-KEY',
        'The 429 did not come right after the limit',
        `limit ${limit}: first 429 on request ${sent}`,
        refused.exchange,
      );
      checkRefusal(ctx, refused);
      await ctx.advanceClock((windowSeconds + 1) * 1000);
      const after = await api.get('/v1/payments', { limit: 1 });
      ctx.expect(
        after.status === 200,
        'RL-FIXED-WINDOW-PER-KEY',
        'Requests still refused after the window',
        `after advancing ${windowSeconds + 1} s: ${after.status}`,
        after.exchange,
      );
      return;
    }
    const probe = await ctx.api.get('/v1/payments', { limit: 1 });
    const remaining = Number(probe.headers['x-ratelimit-remaining']);
    // A target the suite started itself (black-box run) is no shared service: the whole window may be spent.
    const budget = ctx.services.timeTravel ? DEFAULTS.rateLimitBlackBoxBudget : DEFAULTS.rateLimitProbeBudget;
    if (!Number.isFinite(remaining) || remaining > budget) {
      ctx.notExercised(
        `the limit is out of reach: X-RateLimit-Remaining ${probe.headers['x-ratelimit-remaining']} > budget ${budget}, and no control API to lower it`,
      );
    }
    // Twice the remainder: a window that resets while the requests are sent starts the count again once.
    const started = Date.now();
    const { refused, sent, windows } = await hitUntil429(ctx.api, 2 * remaining + 2, IN_FLIGHT);
    ctx.addCases(sent);
    // The window reset more than once while the requests went out (a loaded machine sends slower than the limit
    // allows): a correct limit never refuses then, so no 429 proves nothing unless one window let more than the limit
    // through.
    const limit = Number(probe.headers['x-ratelimit-limit']);
    if (refused === undefined && windows.resets >= 2 && Number.isFinite(limit) && windows.mostInOneWindow <= limit)
      ctx.notExercised(
        `the rate-limit window reset ${windows.resets} times while the suite sent ${sent} requests in ${((Date.now() - started) / 1000).toFixed(0)} s (too slow to spend one window of ${limit}); no window let more than ${windows.mostInOneWindow} through`,
      );
    ctx.require(
      refused !== undefined,
      'RL-429-EXCEEDED',
      'No 429 after exceeding the limit',
      `X-RateLimit-Remaining was ${remaining}; ${sent} more requests all succeeded`,
    );
    checkRefusal(ctx, refused);
    // A clock moved from outside (black-box run) shows the window reset too; otherwise it is not waited for.
    if (ctx.canMoveClock) {
      const reset = Number(refused.headers['x-ratelimit-reset']);
      await ctx.clock.refresh();
      await ctx.advanceClock(Math.max(0, (Number.isFinite(reset) ? reset * 1000 : ctx.clock.now() + 60_000) - ctx.clock.now()) + 2000);
      const after = await ctx.api.get('/v1/payments', { limit: 1 });
      ctx.expect(
        after.status === 200,
        'RL-FIXED-WINDOW-PER-KEY',
        'Requests still refused after the window',
        `after moving the clock past X-RateLimit-Reset ${reset}: ${after.status}`,
        after.exchange,
      );
    }
  },
});
