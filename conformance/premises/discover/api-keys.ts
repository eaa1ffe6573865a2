// The API-key premises (spec §4: "Request and response payloads: not shown"), found by probing: a key is created with
// each body (declared, else the simulator's), what the record shows is read back, the key is tried, then revoked. A
// 4xx to a body refutes it; a record that contradicts it (a 30-day key showing no expiry) refutes it too; a 5xx or a
// record that shows nothing about it leaves it unconfirmed. One probe per body serves every premise it shows.
import type { HttpResponse } from '../../http/client.ts';
import type { DiscoveryEnv, DiscoveryOutcome, Discoverers, PremiseEvidence } from '../book.ts';
import { fillTemplate, type BodyTemplate } from '../templates.ts';
import { evidenceOf, refusedBy } from './evidence.ts';
import { fieldValue, findField, hasField, isInstantNear, isUuid, leaves, sameList } from './fields.ts';

const PATH = '/v1/auth/api-keys';
const DAY = 86_400_000;
/** How far the expiry read back may be from 30 days after the request (clock skew, a clock moved from outside). */
const EXPIRY_TOLERANCE_MS = 3_600_000;
/** The probe whitelist: every address, so the probe key would work from anywhere. */
export const OPEN_WHITELIST = ['0.0.0.0/0', '::/0'];

interface Created {
  response: HttpResponse;
  sent: Record<string, unknown>;
  ok: boolean;
  evidence: PremiseEvidence;
}

async function create(env: DiscoveryEnv, template: BodyTemplate, values: Record<string, unknown>): Promise<Created> {
  const sent = fillTemplate(template, values);
  const response = await env.api.post(PATH, sent);
  const ok = response.status >= 200 && response.status < 300;
  const key = ok
    ? leaves(response.json).find(([, value]) => typeof value === 'string' && value.startsWith('pk_') && value.length > 12)?.[1]
    : undefined;
  if (typeof key === 'string') env.secret(key, 'PREMISE_PROBE_API_KEY');
  // Evidence is clipped: the key is taken out before, so no part of it is left for a report.
  const shown =
    typeof key === 'string'
      ? { status: response.status, text: response.text.split(key).join('[REDACTED:PREMISE_PROBE_API_KEY]') }
      : response;
  return { response, sent, ok, evidence: evidenceOf('POST', PATH, sent, shown) };
}

function bodyOutcome<V>(
  created: Created,
  value: V,
  confirmed: PremiseEvidence | null,
  contradiction: PremiseEvidence | null,
): DiscoveryOutcome<V> {
  if (!created.ok)
    return refusedBy(created.response.status)
      ? { kind: 'refuted', evidence: [created.evidence] }
      : { kind: 'inconclusive', evidence: [created.evidence] };
  if (confirmed) return { kind: 'discovered', value, evidence: [confirmed] };
  if (contradiction) return { kind: 'refuted', evidence: [contradiction] };
  return { kind: 'inconclusive', evidence: [created.evidence] };
}

/** Revokes a probe key (best effort: the probe must not leave keys behind). */
async function revoke(env: DiscoveryEnv, created: Created): Promise<HttpResponse | null> {
  if (!created.ok) return null;
  const idField = await env.resolve('api-keys.id-field');
  const id = fieldValue(created.response.json, idField);
  return typeof id === 'string' ? env.api.delete(`${PATH}/${id}`) : null;
}

interface PlainProbe {
  body: DiscoveryOutcome<BodyTemplate>;
  secretField: DiscoveryOutcome<string>;
  idField: DiscoveryOutcome<string>;
}

async function plainProbe(
  env: DiscoveryEnv,
  candidates: { body: BodyTemplate; secretField: string; idField: string },
): Promise<PlainProbe> {
  const created = await create(env, candidates.body, { name: 'conformance premise probe' });
  const nothing: DiscoveryOutcome<string> = { kind: 'inconclusive', evidence: [created.evidence] };
  if (!created.ok) return { body: bodyOutcome(created, candidates.body, null, null), secretField: nothing, idField: nothing };
  const record = created.response.json;
  const pkStrings = leaves(record)
    .filter(([, value]) => typeof value === 'string' && value.startsWith('pk_'))
    .sort((a, b) => String(b[1]).length - String(a[1]).length);
  const secretField =
    typeof fieldValue(record, candidates.secretField) === 'string' && String(fieldValue(record, candidates.secretField)).startsWith('pk_')
      ? candidates.secretField
      : (pkStrings[0]?.[0] ?? null);
  let secret: DiscoveryOutcome<string> = {
    kind: 'inconclusive',
    evidence: [{ ...created.evidence, seen: `${created.response.status}: no string starting pk_ in the response` }],
  };
  if (secretField) {
    const key = String(fieldValue(record, secretField));
    const works = await env.api.request({
      method: 'GET',
      path: '/v1/payments',
      query: { limit: 1 },
      auth: { key, label: 'PREMISE_PROBE_API_KEY' },
    });
    const tried = { sent: `GET /v1/payments with the new key (field ${secretField})`, seen: `${works.status}` };
    secret =
      works.status === 200 ? { kind: 'discovered', value: secretField, evidence: [tried] } : { kind: 'inconclusive', evidence: [tried] };
  }
  const idField =
    findField(record, candidates.idField, isUuid) ??
    (typeof fieldValue(record, candidates.idField) === 'string' ? candidates.idField : null);
  let id: DiscoveryOutcome<string> = {
    kind: 'inconclusive',
    evidence: [{ ...created.evidence, seen: `${created.response.status}: no id field (no \`${candidates.idField}\`, no single UUID)` }],
  };
  if (idField) {
    const revoked = await env.api.delete(`${PATH}/${String(fieldValue(record, idField))}`);
    const tried = { sent: `DELETE ${PATH}/<${idField}>`, seen: `${revoked.status}` };
    id =
      revoked.status >= 200 && revoked.status < 300
        ? { kind: 'discovered', value: idField, evidence: [tried] }
        : { kind: 'inconclusive', evidence: [tried] };
  }
  return { body: { kind: 'discovered', value: candidates.body, evidence: [created.evidence] }, secretField: secret, idField: id };
}

/** The plain-key probe, run once for the three premises it shows. */
function plain(env: DiscoveryEnv): Promise<PlainProbe> {
  return env.once('api-keys.plain', () =>
    plainProbe(env, {
      body: env.candidate('api-keys.create-body'),
      secretField: env.candidate('api-keys.secret-field'),
      idField: env.candidate('api-keys.id-field'),
    }),
  );
}

interface ExpiringProbe {
  body: DiscoveryOutcome<BodyTemplate>;
  field: DiscoveryOutcome<string>;
}

async function expiringProbe(env: DiscoveryEnv, template: BodyTemplate, candidateField: string): Promise<ExpiringProbe> {
  const now = env.now();
  const expected = now + 30 * DAY;
  const created = await create(env, template, {
    name: 'conformance premise probe (30 days)',
    expiresInDays: 30,
    expiresAt: new Date(expected).toISOString(),
  });
  try {
    const record = created.response.json;
    const field = created.ok ? findField(record, candidateField, (value) => isInstantNear(value, expected, EXPIRY_TOLERANCE_MS)) : null;
    const shown = field
      ? { ...created.evidence, seen: `${created.response.status}: ${field} ${String(fieldValue(record, field))}, 30 days out` }
      : null;
    const contradiction =
      !field && hasField(record, candidateField)
        ? {
            ...created.evidence,
            seen: `${created.response.status}: ${candidateField} ${JSON.stringify(fieldValue(record, candidateField))}, not 30 days out`,
          }
        : null;
    return {
      body: bodyOutcome(created, template, shown, contradiction),
      field:
        field && shown
          ? { kind: 'discovered', value: field, evidence: [shown] }
          : { kind: 'inconclusive', evidence: [contradiction ?? created.evidence] },
    };
  } finally {
    await revoke(env, created);
  }
}

/** The 30-day probe, run once for the body and the expiry field. */
function expiring(env: DiscoveryEnv): Promise<ExpiringProbe> {
  return env.once('api-keys.expiring', () =>
    expiringProbe(env, env.candidate('api-keys.expiring-body'), env.candidate('api-keys.expiry-field')),
  );
}

export const API_KEY_DISCOVERERS: Discoverers = {
  // The bodies are their own candidates: the probe that sends one confirms or refutes it.
  'api-keys.create-body': async (env) => (await plain(env)).body,
  'api-keys.secret-field': async (env) => (await plain(env)).secretField,
  'api-keys.id-field': async (env) => (await plain(env)).idField,
  'api-keys.expiring-body': async (env) => (await expiring(env)).body,
  'api-keys.expiry-field': async (env) => (await expiring(env)).field,
  'api-keys.never-expiring-body': async (env, candidate) => {
    const expiryField = await env.resolve('api-keys.expiry-field');
    const created = await create(env, candidate, { name: 'conformance premise probe (never expires)' });
    try {
      // null says "never"; an expiry contradicts the body; a record without the field says nothing.
      const value = fieldValue(created.response.json, expiryField);
      const seen = { ...created.evidence, seen: `${created.response.status}: ${expiryField} ${JSON.stringify(value)}` };
      return bodyOutcome(created, candidate, value === null ? seen : null, value !== null && value !== undefined ? seen : null);
    } finally {
      await revoke(env, created);
    }
  },
  'api-keys.whitelist-body': async (env, candidate) => {
    const created = await create(env, candidate, { name: 'conformance premise probe (whitelist)', ipWhitelist: OPEN_WHITELIST });
    try {
      const record = created.response.json;
      const field = created.ok ? leaves(record).find(([, value]) => sameList(value, OPEN_WHITELIST))?.[0] : undefined;
      const shown = field
        ? { ...created.evidence, seen: `${created.response.status}: ${field} ${JSON.stringify(fieldValue(record, field))}` }
        : null;
      const contradiction =
        !field && hasField(record, 'ipWhitelist')
          ? {
              ...created.evidence,
              seen: `${created.response.status}: ipWhitelist ${JSON.stringify(fieldValue(record, 'ipWhitelist'))}, not as sent`,
            }
          : null;
      return bodyOutcome(created, candidate, shown, contradiction);
    } finally {
      await revoke(env, created);
    }
  },
};
