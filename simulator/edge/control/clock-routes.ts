// Control API: the virtual clocks. With a merchant's key a clock call acts on that merchant's clock (the test clock it
// is attached to, if any); without one, on the sandbox clock, which moves every clock under it. Test clocks are
// made, read and moved by id. Advancing fires every due timer in order (expiries, webhook retries) and answers
// without waiting on any webhook receiver: a fired retry only starts its attempt (core/webhooks/dispatcher.ts).
import { Hono, type Context } from 'hono';
import type { VirtualClock } from '../../core/clock/virtual-clock.ts';
import { badRequest, notFound } from '../http/errors.ts';
import { readJsonBody } from '../http/json-body.ts';
import { isPlainObject, parseDateTime, Problems, rejectUnknownFields } from '../../core/validation/index.ts';
import type { ClockAdvanceResult, ClockState, TestClock } from '@stablepay/contract/types';
import { merchantFromBearer, type ControlDeps } from './control-deps.ts';

const MAX_ADVANCE_MS = 10 * 365 * 86_400_000;

/** `/clock`: the calling merchant's clock, or the sandbox clock without a key. */
export function clockRoutes(deps: ControlDeps): Hono {
  const clockOf = (c: Context): VirtualClock =>
    c.req.header('authorization') === undefined ? deps.clock.sandbox : deps.clock.for(merchantFromBearer(c, deps));
  return movableClock(clockOf, (clock) => ({ now: clock.nowIso(), offsetMs: clock.offsetMs }) satisfies ClockState);
}

/** `/clocks`: test clocks, made at the sandbox time and shared by the merchants created on them. */
export function testClockRoutes({ clock: clocks }: ControlDeps): Hono {
  const app = new Hono();
  const view = (id: string) => (clock: VirtualClock) => ({ id, now: clock.nowIso(), offsetMs: clock.offsetMs }) satisfies TestClock;
  app.post('/', (c) => {
    const { id, clock } = clocks.createTestClock();
    return c.json(view(id)(clock), 201);
  });
  app.use('/:clockId/*', async (c, next) => {
    if (!clocks.hasTestClock(c.req.param('clockId'))) throw notFound('Test clock');
    await next();
  });
  app.get('/:clockId', (c) => {
    const id = c.req.param('clockId');
    if (!clocks.hasTestClock(id)) throw notFound('Test clock');
    return c.json(view(id)(clocks.for(id)), 200);
  });
  app.route(
    '/:clockId',
    movableClock((c) => clocks.for(c.req.param('clockId') as string), undefined),
  );
  return app;
}

/** GET / (when `read` is given), POST /advance and POST /set on the clock a request names. */
function movableClock(clockOf: (c: Context) => VirtualClock, read: ((clock: VirtualClock) => unknown) | undefined): Hono {
  const app = new Hono();
  if (read) app.get('/', (c) => c.json(read(clockOf(c)), 200));

  app.post('/advance', async (c) => {
    const clock = clockOf(c);
    const body = await readJsonBody(c);
    const problems = new Problems();
    if (!isPlainObject(body)) problems.add([], 'Request body must be a JSON object');
    else {
      rejectUnknownFields(body, ['ms'], problems);
      if (typeof body.ms !== 'number' || !Number.isInteger(body.ms) || body.ms < 0 || body.ms > MAX_ADVANCE_MS) {
        problems.add(['ms'], `ms must be an integer from 0 to ${MAX_ADVANCE_MS}`);
      }
    }
    problems.throwIfAny();
    const result = await clock.advance((body as { ms: number }).ms);
    await clock.settle();
    return c.json({ now: new Date(result.now).toISOString(), firedTimers: result.firedTimers } satisfies ClockAdvanceResult, 200);
  });

  app.post('/set', async (c) => {
    const clock = clockOf(c);
    const body = await readJsonBody(c);
    const problems = new Problems();
    let target: number | undefined;
    if (!isPlainObject(body)) problems.add([], 'Request body must be a JSON object');
    else {
      rejectUnknownFields(body, ['now'], problems);
      target = typeof body.now === 'string' ? parseDateTime(body.now) : undefined;
      if (target === undefined) problems.add(['now'], 'now must be an ISO 8601 date-time');
    }
    problems.throwIfAny();
    const result = await clock.setTime(target as number).catch((error: unknown) => {
      if (error instanceof RangeError) throw badRequest('The virtual clock only moves forward');
      throw error;
    });
    await clock.settle();
    return c.json({ now: new Date(result.now).toISOString(), firedTimers: result.firedTimers } satisfies ClockAdvanceResult, 200);
  });

  return app;
}
