// The assumed premises of the suite, declared as data (DESIGN §2 "Premises"): shapes the spec does not show that a
// check needs before it can judge a documented rule. Each names where the spec is silent, the simulator's choice (the
// fallback), how the suite discovers the implementation's own choice, and the key of the implementation profile that
// declares it when it cannot be observed. How each is discovered lives in ./discover/, the run's record in ./book.ts.
import { CURRENCIES } from '../facts/fixtures.ts';
import type { BodyTemplate } from './templates.ts';

/** The value each premise takes. */
export interface PremiseValues {
  'list.item-key': string;
  /** Per currency: the smallest accepted amount; null when no amount up to the maximum was accepted. */
  'payments.minimum-amounts': Record<string, string | null>;
  'api-keys.create-body': BodyTemplate;
  'api-keys.expiring-body': BodyTemplate;
  'api-keys.never-expiring-body': BodyTemplate;
  'api-keys.whitelist-body': BodyTemplate;
  'api-keys.secret-field': string;
  'api-keys.id-field': string;
  'api-keys.expiry-field': string;
  'api-keys.limit': number;
  'webhooks.create-body': BodyTemplate;
  'webhooks.update-body': BodyTemplate;
  'webhooks.secret-field': string;
  'webhooks.test-with-api-key': boolean;
  'analytics.export-query': Record<string, string>;
  'ledger.payment-field': string;
}

export type PremiseId = keyof PremiseValues;

export interface PremiseDefinition<Id extends PremiseId = PremiseId> {
  id: Id;
  /** What the premise is, as a noun phrase ("the name of the array ..."). */
  title: string;
  /** Where the spec leaves it open (section and the words it uses). */
  specSilence: string;
  /** The simulator's choice: the fallback when the run can neither discover nor read a declaration. */
  simulatorDefault: PremiseValues[Id];
  /** How the suite finds the implementation's choice ("by use" premises are confirmed when a check first uses them). */
  discovery: string;
  /** Dotted key of the implementation profile that declares it (`apiKeys.expiringBody`). */
  profileKey: string;
}

const MINIMUMS = Object.fromEntries(CURRENCIES.map((c) => [c.code, c.minimum]));

export const PREMISES: { [Id in PremiseId]: PremiseDefinition<Id> } = {
  'list.item-key': {
    id: 'list.item-key',
    title: 'the name of the array that holds the items of a list response',
    specSilence: '§2 "Pagination envelope": nextCursor and hasMore "alongside the items"; §4 list: item shape not shown',
    simulatorDefault: 'data',
    discovery: 'the one array beside nextCursor and hasMore in GET /v1/payments',
    profileKey: 'listItemKey',
  },
  'payments.minimum-amounts': {
    id: 'payments.minimum-amounts',
    title: 'the per-currency minimum amount of a payment',
    specSilence: '§8 "Per-currency minimum amounts: not shown"',
    simulatorDefault: MINIMUMS,
    discovery: 'the boundary: the smallest amount of each currency that POST /v1/payments accepts, with the next smaller one refused',
    profileKey: 'minimumAmounts',
  },
  'api-keys.create-body': {
    id: 'api-keys.create-body',
    title: 'the body of POST /v1/auth/api-keys that creates a plain key',
    specSilence: '§4 API keys: "Request and response payloads: not shown"',
    simulatorDefault: { name: '{name}' },
    discovery: 'by use: a key created with it is answered 2xx and works',
    profileKey: 'apiKeys.createBody',
  },
  'api-keys.expiring-body': {
    id: 'api-keys.expiring-body',
    title: 'the body of POST /v1/auth/api-keys that creates a key expiring at a given time ({expiresAt} or {expiresInDays})',
    specSilence: '§4 API keys: "expiry from 30 days to never"; payloads not shown',
    simulatorDefault: { name: '{name}', expiresInDays: '{expiresInDays}' },
    discovery: 'by use: a 30-day key is answered 2xx and its record shows an expiry 30 days after its creation',
    profileKey: 'apiKeys.expiringBody',
  },
  'api-keys.never-expiring-body': {
    id: 'api-keys.never-expiring-body',
    title: 'the body of POST /v1/auth/api-keys that creates a key that never expires',
    specSilence: '§4 API keys: "expiry from 30 days to never"; payloads not shown',
    simulatorDefault: { name: '{name}', expiresInDays: null },
    discovery: 'by use: the key is answered 2xx and its record shows no expiry',
    profileKey: 'apiKeys.neverExpiringBody',
  },
  'api-keys.whitelist-body': {
    id: 'api-keys.whitelist-body',
    title: 'the body of POST /v1/auth/api-keys that creates a key with an IP whitelist ({ipWhitelist})',
    specSilence: '§4 API keys: "optional IP whitelist"; payloads not shown',
    simulatorDefault: { name: '{name}', ipWhitelist: '{ipWhitelist}' },
    discovery: 'by use: the key is answered 2xx and its record shows the whitelist as sent',
    profileKey: 'apiKeys.whitelistBody',
  },
  'api-keys.secret-field': {
    id: 'api-keys.secret-field',
    title: 'the field of the key-creation response that shows the new pk_ key',
    specSilence: '§2 "API key record: fields not shown beyond the pk_ prefix"',
    simulatorDefault: 'key',
    discovery: 'the longest string starting pk_ in the creation response, confirmed when that key is accepted',
    profileKey: 'apiKeys.secretField',
  },
  'api-keys.id-field': {
    id: 'api-keys.id-field',
    title: 'the field of a key record holding the id that DELETE /v1/auth/api-keys/{id} takes',
    specSilence: '§2 "API key record: fields not shown"',
    simulatorDefault: 'id',
    discovery: 'the field `id`, else the only UUID of the record, confirmed when a revoke with it is answered 2xx',
    profileKey: 'apiKeys.idField',
  },
  'api-keys.expiry-field': {
    id: 'api-keys.expiry-field',
    title: 'the field of a key record that shows its expiry',
    specSilence: '§2 "API key record: fields not shown beyond ... an expiry of 30 days up to never"',
    simulatorDefault: 'expiresAt',
    discovery: 'the timestamp of the record 30 days after its creation, on a key created to expire in 30 days',
    profileKey: 'apiKeys.expiryField',
  },
  'api-keys.limit': {
    id: 'api-keys.limit',
    title: 'how many active keys a merchant may hold before creation answers 409',
    specSilence: '§7: 409 "also listed for an API key limit being reached"; the limit is not shown',
    simulatorDefault: 10,
    discovery: 'by use: the number of active keys when a creation is first refused with 409',
    profileKey: 'apiKeys.limit',
  },
  'webhooks.create-body': {
    id: 'webhooks.create-body',
    title: 'the body of POST /v1/webhooks that configures the endpoint ({url})',
    specSilence: '§4 Webhook configuration: "Request and response payloads of these endpoints: not shown"',
    simulatorDefault: { url: '{url}' },
    discovery: 'by use: the configuration is answered 2xx and deliveries reach that URL',
    profileKey: 'webhooks.createBody',
  },
  'webhooks.update-body': {
    id: 'webhooks.update-body',
    title: 'the body of PUT /v1/webhooks that changes the endpoint ({url}, {enabled}; a key whose value is not given is left out)',
    specSilence: '§4 Webhook configuration: payloads not shown',
    simulatorDefault: { url: '{url}', enabled: '{enabled}' },
    discovery: 'by use: the change is answered 2xx',
    profileKey: 'webhooks.updateBody',
  },
  'webhooks.secret-field': {
    id: 'webhooks.secret-field',
    title: 'the field of the configuration (and rotation) response that shows the webhook secret',
    specSilence: '§6 "The webhook secret is shown only once at setup"; its field and format are not shown',
    simulatorDefault: 'secret',
    discovery: 'the one long string of the response that is no id, URL or timestamp; confirmed when a delivery verifies with it',
    profileKey: 'webhooks.secretField',
  },
  'webhooks.test-with-api-key': {
    id: 'webhooks.test-with-api-key',
    title: 'whether POST /v1/webhooks/test may be called with an API key',
    specSilence: '§4: "which rule governs POST /v1/webhooks/test: not shown"',
    simulatorDefault: true,
    discovery: 'by use: the first test call answered 2xx (yes) or 401/403 (no)',
    profileKey: 'webhooks.testWithApiKey',
  },
  'analytics.export-query': {
    id: 'analytics.export-query',
    title: 'the query parameters GET /v1/analytics/export needs for the 30-day export',
    specSilence: '§4 Analytics and ledger: "Query parameters and payloads of these endpoints: not shown"',
    simulatorDefault: {},
    discovery: 'by use: the export is answered 2xx',
    profileKey: 'analytics.exportQuery',
  },
  'ledger.payment-field': {
    id: 'ledger.payment-field',
    title: 'the field of a ledger record that names the settled payment',
    specSilence: '§2 "Transaction ledger record ...: fields not shown"',
    simulatorDefault: 'paymentId',
    discovery: "the field whose value is a settled payment's id",
    profileKey: 'ledger.paymentField',
  },
};

export const PREMISE_IDS = Object.keys(PREMISES) as PremiseId[];

export function isPremiseId(id: string): id is PremiseId {
  return Object.hasOwn(PREMISES, id);
}
