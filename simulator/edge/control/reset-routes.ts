// Control API: POST /reset. The simulator cannot rebuild itself from inside one of its own routes,
// so whoever owns it (server.ts) hands in `reset`; without an owner the route is not mounted.
import { Hono } from 'hono';
import { API_KEY_PATTERN } from '../../core/api-keys/index.ts';
import { readJsonBody } from '../http/json-body.ts';
import { isPlainObject, Problems, rejectUnknownFields } from '../../core/validation/index.ts';
import type { ResetResult } from '@stablepay/contract/types';

/** Rebuilds the simulator; `apiKey` is the new default merchant's key when given. */
export type ResetSimulator = (apiKey: string | undefined) => Promise<ResetResult>;

export function resetRoutes(reset: ResetSimulator): Hono {
  const app = new Hono();
  app.post('/', async (c) => {
    const body = await readJsonBody(c, { optional: true });
    const problems = new Problems();
    let apiKey: string | undefined;
    if (body !== undefined) {
      if (!isPlainObject(body)) problems.add([], 'Request body must be a JSON object');
      else {
        rejectUnknownFields(body, ['apiKey'], problems);
        if (body.apiKey !== undefined) {
          if (typeof body.apiKey === 'string' && API_KEY_PATTERN.test(body.apiKey)) apiKey = body.apiKey;
          else problems.add(['apiKey'], 'apiKey must be pk_ followed by 8 to 128 letters or digits');
        }
      }
    }
    problems.throwIfAny();
    return c.json(await reset(apiKey), 200);
  });
  return app;
}
