// Creating API keys without assuming the payload (spec §4: "Request and response payloads: not shown"): the body is
// the established template of the kind of key wanted, and the key and its id are read from the fields the run
// established (premises api-keys.*). A check that creates keys declares the premises of the kinds it creates plus
// api-keys.secret-field and api-keys.id-field.
import type { CheckContext } from '../context.ts';
import type { HttpClient, HttpResponse } from '../http/client.ts';
import type { PremiseId } from '../premises/definitions.ts';
import { fieldValue } from '../premises/discover/fields.ts';
import { fillTemplate } from '../premises/templates.ts';

export type KeyKind = 'plain' | 'expiring' | 'never-expiring' | 'whitelist';

type KeyBodyPremise = Extract<PremiseId, `api-keys.${string}-body`>;

export const KEY_BODY_PREMISE: Record<KeyKind, KeyBodyPremise> = {
  plain: 'api-keys.create-body',
  expiring: 'api-keys.expiring-body',
  'never-expiring': 'api-keys.never-expiring-body',
  whitelist: 'api-keys.whitelist-body',
};

export interface KeyValues {
  name: string;
  /** For `expiring`: days from the implementation's now (filled as {expiresInDays} and {expiresAt}). */
  expiresInDays?: number;
  ipWhitelist?: string[];
}

export interface CreatedKey {
  response: HttpResponse;
  /** The body as sent. */
  sent: Record<string, unknown>;
  ok: boolean;
  record: unknown;
  key?: string;
  id?: string;
}

const DAY = 86_400_000;

export async function createKey(ctx: CheckContext, api: HttpClient, kind: KeyKind, values: KeyValues, label: string): Promise<CreatedKey> {
  const template = await ctx.premise(KEY_BODY_PREMISE[kind]);
  const fill: Record<string, unknown> = { name: values.name, ipWhitelist: values.ipWhitelist };
  if (values.expiresInDays !== undefined) {
    fill.expiresInDays = values.expiresInDays;
    fill.expiresAt = new Date(ctx.clock.now() + values.expiresInDays * DAY).toISOString();
  }
  const sent = fillTemplate(template, fill);
  const response = await api.post('/v1/auth/api-keys', sent);
  const ok = response.status >= 200 && response.status < 300;
  if (!ok) return { response, sent, ok, record: response.json };
  const key = fieldValue(response.json, await ctx.premise('api-keys.secret-field'));
  const id = fieldValue(response.json, await ctx.premise('api-keys.id-field'));
  if (typeof key === 'string') ctx.services.secrets.add(key, label);
  return {
    response,
    sent,
    ok,
    record: response.json,
    ...(typeof key === 'string' ? { key } : {}),
    ...(typeof id === 'string' ? { id } : {}),
  };
}

/** The expiry a key record shows (premise api-keys.expiry-field): an instant, null (never), or undefined (not shown). */
export async function expiryOf(ctx: CheckContext, record: unknown): Promise<number | null | undefined> {
  const value = fieldValue(record, await ctx.premise('api-keys.expiry-field'));
  if (value === null) return null;
  return typeof value === 'string' && Number.isFinite(Date.parse(value)) ? Date.parse(value) : undefined;
}
