// Configuring the webhook endpoint without assuming its payloads (spec §4: "Request and response payloads of these
// endpoints: not shown"): the bodies are the templates the run established, the secret is found in the response by
// what it is (the one long string that is no id, URL or timestamp), and whether an API key may send the test event
// is learnt from the first try. Each is a premise (webhooks.*), confirmed here by use.
import type { CheckContext } from '../context.ts';
import type { HttpClient, HttpResponse } from '../http/client.ts';
import { evidenceOf, refusedBy } from '../premises/discover/evidence.ts';
import { fieldValue, isUuid, leaves } from '../premises/discover/fields.ts';
import { fillTemplate } from '../premises/templates.ts';

export interface Configured {
  response: HttpResponse;
  sent: Record<string, unknown>;
  ok: boolean;
}

const ok = (status: number) => status >= 200 && status < 300;

/** POST /v1/webhooks (create) or PUT /v1/webhooks (update) with the established body; a 2xx confirms the body, a 4xx refutes it. */
export async function configureEndpoint(
  ctx: CheckContext,
  api: HttpClient,
  how: 'create' | 'update',
  values: { url?: string; enabled?: boolean },
): Promise<Configured> {
  const premise = how === 'create' ? 'webhooks.create-body' : 'webhooks.update-body';
  const template = await ctx.premise(premise);
  const sent = fillTemplate(template, values);
  const response = how === 'create' ? await api.post('/v1/webhooks', sent) : await api.put('/v1/webhooks', sent);
  // The response shows the secret: the evidence names its fields, never their values.
  const fields = response.json !== null && typeof response.json === 'object' ? Object.keys(response.json as object).join(', ') : '';
  const evidence = evidenceOf(how === 'create' ? 'POST' : 'PUT', '/v1/webhooks', sent, {
    status: response.status,
    text: fields ? `{${fields}}` : '',
  });
  if (ok(response.status)) ctx.confirmPremise(premise, template, evidence);
  else if (refusedBy(response.status) && response.status !== 409 && response.status !== 404) ctx.refutePremise(premise, evidence);
  return { response, sent, ok: ok(response.status) };
}

const DATE_LIKE = /^\d{4}-\d{2}-\d{2}T/;

/** Strings of a configuration response that could be the secret: long, and no id, URL or timestamp. */
function secretCandidates(body: unknown, sentUrl?: string): string[] {
  return leaves(body)
    .filter(
      ([, value]) =>
        typeof value === 'string' &&
        value.length >= 16 &&
        value !== sentUrl &&
        !isUuid(value) &&
        !DATE_LIKE.test(value) &&
        !/^https?:\/\//.test(value),
    )
    .map(([path]) => path);
}

/**
 * The secret a configuration or rotation response shows: in the established field (premise webhooks.secret-field),
 * else in the only field that can hold one, which then becomes the established field. Undefined when none.
 */
export async function secretFrom(ctx: CheckContext, response: HttpResponse, sentUrl?: string): Promise<string | undefined> {
  const state = await ctx.premiseState('webhooks.secret-field');
  const named = fieldValue(response.json, state.value);
  const candidates = secretCandidates(response.json, sentUrl);
  const evidence = (field: string) => ({
    sent: `${response.exchange.method} ${new URL(response.exchange.url).pathname}`,
    seen: `${response.status}: the secret is in \`${field}\` (${candidates.length} candidate field${candidates.length === 1 ? '' : 's'}: ${candidates.join(', ')})`,
  });
  if (typeof named === 'string' && named.length > 0) {
    if (state.status !== 'declared' && candidates.length === 1 && candidates[0] === state.value)
      ctx.confirmPremise('webhooks.secret-field', state.value, evidence(state.value));
    return named;
  }
  if (candidates.length === 1) {
    ctx.confirmPremise('webhooks.secret-field', candidates[0]!, evidence(candidates[0]!));
    return String(fieldValue(response.json, candidates[0]!));
  }
  ctx.refutePremise('webhooks.secret-field', {
    sent: `${response.exchange.method} ${new URL(response.exchange.url).pathname}`,
    seen: `${response.status}: no \`${state.value}\` and ${candidates.length} fields that could hold the secret (${candidates.join(', ') || 'none'})`,
  });
  return undefined;
}

/**
 * POST /v1/webhooks/test, learning whether an API key may send it (spec §4: "which rule governs POST /v1/webhooks/test:
 * not shown"): 2xx says yes, 401 or 403 says no. Returns the response.
 */
export async function sendTestEvent(ctx: CheckContext, api: HttpClient): Promise<HttpResponse> {
  const response = await api.request({ method: 'POST', path: '/v1/webhooks/test' });
  const evidence = evidenceOf('POST', '/v1/webhooks/test', undefined, response);
  if (ok(response.status)) ctx.confirmPremise('webhooks.test-with-api-key', true, evidence);
  else if (response.status === 401 || response.status === 403) ctx.confirmPremise('webhooks.test-with-api-key', false, evidence);
  return response;
}

/** Not exercised when the run learnt that an API key may not send the test event (a session action, legal). */
export async function requireTestWithKey(ctx: CheckContext, response: HttpResponse): Promise<void> {
  if (ok(response.status)) return;
  if ((await ctx.premise('webhooks.test-with-api-key')) === false) {
    ctx.notExercised(
      `POST /v1/webhooks/test answered ${response.status} to an API key: it is a session action on this implementation (legal: spec §4 leaves it open), so the test event cannot be judged`,
    );
  }
}
