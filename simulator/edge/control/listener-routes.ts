// Control API: /listeners, the sessions of `stablepay listen` (Stripe's CLI sessions). A listener belongs to the API
// key that registered it; it gets every event of that key's merchant, signed with its own secret, until it is
// deleted. The registry outlives a reset (server.ts), so a listener keeps receiving while its key stays valid.
import type { Context } from 'hono';
import { Hono } from 'hono';
import { hashApiKey } from '../../core/api-keys/index.ts';
import { Conflict, NotFound } from '../../core/refusals/refusals.ts';
import { MAX_LISTENERS_PER_KEY, type Listener } from '../../core/webhooks/index.ts';
import { validateListener } from '../../core/webhooks/validate-listener.ts';
import type { ControlListener, ControlListenerList, ControlListenerTestResult } from '@stablepay/contract/types';
import { readJsonBody } from '../http/json-body.ts';
import { type ControlDeps, merchantFromBearer } from './control-deps.ts';

const listenerNotFound = (): NotFound => new NotFound('Listener');

export function listenerRoutes(deps: ControlDeps): Hono {
  const { listeners, webhooks, clock } = deps;
  const app = new Hono();

  /** The caller's merchant and key hash: a listener is the key's, so only that key sees or removes it. */
  const caller = (c: Context): { merchantId: string; keyHash: string } => {
    const merchantId = merchantFromBearer(c, deps);
    const token = (c.req.header('authorization') ?? '').replace(/^Bearer\s+/i, '').trim();
    return { merchantId, keyHash: hashApiKey(token) };
  };
  const view = (listener: Listener, merchantId: string): ControlListener => ({
    id: listener.id,
    url: listener.url,
    events: listener.events ? [...listener.events] : null,
    secretLast4: listener.secret.slice(-4),
    merchantId,
    createdAt: listener.createdAt,
  });
  const owned = (c: Context): { listener: Listener; merchantId: string } => {
    const { merchantId, keyHash } = caller(c);
    const listener = listeners.get(c.req.param('id') ?? '');
    if (!listener || listener.keyHash !== keyHash) throw listenerNotFound();
    return { listener, merchantId };
  };

  app.post('/', async (c) => {
    const { merchantId, keyHash } = caller(c);
    const input = validateListener(await readJsonBody(c));
    if (listeners.countFor(keyHash) >= MAX_LISTENERS_PER_KEY)
      throw new Conflict(`This key already has ${MAX_LISTENERS_PER_KEY} listeners; delete one first`);
    return c.json(view(listeners.add({ ...input, keyHash }, clock.nowIso()), merchantId), 201);
  });

  app.get('/', (c) => {
    const { merchantId, keyHash } = caller(c);
    const data = listeners
      .all()
      .filter((l) => l.keyHash === keyHash)
      .map((l) => view(l, merchantId));
    return c.json({ data } satisfies ControlListenerList, 200);
  });

  // A test event to the merchant's listeners (and its endpoint, when enabled), for `stablepay trigger test`
  // without an endpoint: POST /v1/webhooks/test needs one.
  app.post('/test', (c) => {
    const { merchantId } = caller(c);
    webhooks.emit(merchantId, { type: 'test' });
    const reached = listeners.all().filter((l) => deps.keys.findByHash(l.keyHash)?.merchantId === merchantId).length;
    return c.json({ listeners: reached } satisfies ControlListenerTestResult, 202);
  });

  app.get('/:id', (c) => {
    const { listener, merchantId } = owned(c);
    return c.json(view(listener, merchantId), 200);
  });

  app.delete('/:id', (c) => {
    const { listener } = owned(c);
    listeners.remove(listener.id);
    return c.body(null, 204);
  });

  return app;
}
