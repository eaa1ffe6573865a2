// Control API: the virtual clock. Advancing fires every due timer in order (expiries, webhook
// retries) and answers without waiting on any webhook receiver: a fired retry only starts its
// attempt (simulator/core/webhooks/dispatcher.ts).
import { Hono } from 'hono';
import { badRequest } from '../http/errors.ts';
import { readJsonBody } from '../http/json-body.ts';
import { isPlainObject, parseDateTime, Problems, rejectUnknownFields } from '../../core/validation/index.ts';
import type { ClockAdvanceResult, ClockState } from '@stablepay/contract/types';
import type { ControlDeps } from './control-deps.ts';

const MAX_ADVANCE_MS = 10 * 365 * 86_400_000;

export function clockRoutes({ clock }: ControlDeps): Hono {
  const app = new Hono();

  app.get('/', (c) => c.json({ now: clock.nowIso(), offsetMs: clock.offsetMs } satisfies ClockState, 200));

  app.post('/advance', async (c) => {
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
