// The acts that need a resource alone, refused to a check that did not declare it (requireExclusive): whatever
// helper a check calls, the request itself is looked at before it is sent.
import type { Credential } from '../http/client.ts';
import { currentScope, requireExclusive } from '../http/request-scope.ts';

export interface GuardedRequest {
  method: string;
  path: string;
  credential: Credential | null;
}

/**
 * A check reading the run's recorded traffic (cross-cutting) runs beside the other readers: a request of its own would
 * be seen by some of them and not others, so it sends none.
 */
export function refuseReaders({ method, path }: GuardedRequest): void {
  const scope = currentScope();
  if (scope?.claims?.exclusive.has('recorded-traffic') && !scope.claims.sendsRequests)
    throw new Error(
      `check ${scope.checkId} sent ${method} ${path} while reading the run's recorded traffic: a cross-cutting check sends no request (the other readers beside it would judge it or not by chance) unless it declares resources: { sendsRequests: true }`,
    );
}

/** Control API: moving a clock (advance, set) and changing the rate limit (global for every merchant). */
export async function controlGuard(request: GuardedRequest): Promise<void> {
  refuseReaders(request);
  const { method, path } = request;
  if (method === 'GET') return;
  // A test clock made for the running check alone moves no other check's time.
  const own = currentScope()?.claims?.ownClockId;
  if (own !== undefined && path.startsWith(`/clocks/${encodeURIComponent(own)}/`)) return;
  // The shared clock, or the run's own test clock (POST /clocks/{id}/advance|set), which every merchant of the run is on.
  if (/^\/clock(\/|$)/.test(path) || /^\/clocks\/[^/]+\/(advance|set)$/.test(path))
    await requireExclusive('clock', `moved the clock (${method} ${path})`);
  if (/^\/rate-limit(\/|$)/.test(path)) await requireExclusive('rate-limit-window', `changed the rate limit (${method} ${path})`);
}

/**
 * Service: changing or testing the main merchant's one webhook endpoint (every other check's deliveries go there).
 * `mainKey` is read when a request is sent: the run's merchant is known only after the control API answered.
 */
export function mainEndpointGuard(mainKey: () => string | undefined): (request: GuardedRequest) => Promise<void> {
  return async (request) => {
    refuseReaders(request);
    const { method, path, credential } = request;
    if (method === 'GET' || !/^\/v1\/webhooks(\/|$)/.test(path)) return;
    if (credential && 'key' in credential && credential.key === mainKey())
      await requireExclusive('main-webhook-endpoint', `changed the main merchant's webhook endpoint (${method} ${path})`);
  };
}
