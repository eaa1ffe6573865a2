// Cross-cutting, fed by the recorder: every identifier in every JSON body the service returned is a
// UUID string (documented), version 4 (assumed). Identifiers are the identifier fields the contract
// defines (`id`, `paymentId`, `payoutId`); not `externalId` (the merchant's own reference), not
// `chainId` (an EVM chain number), and not a field the contract does not define: where a shape is
// open, an extra `traceId` or `requestId` is legal and not ours to judge.
import type { CheckContext } from '../../context.ts';
import { defineCheck } from '../../registry.ts';
import { judgeRecordedBodies, type FieldProblem } from './json-fields.ts';

const ID_KEYS = new Set(['id', 'paymentId', 'payoutId']);
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const UUID_V4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/i;

export function judgeId(key: string, value: unknown): FieldProblem | null {
  if (!ID_KEYS.has(key) || value === null) return null;
  if (typeof value !== 'string')
    return typeof value === 'object' ? null : { requirement: 'FMT-ID-UUID', problem: `identifier is a ${typeof value}, not a UUID string` };
  if (!UUID.test(value)) return { requirement: 'FMT-ID-UUID', problem: 'identifier is not a UUID' };
  if (!UUID_V4.test(value)) return { requirement: 'FMT-ID-UUID-V4', problem: 'identifier is a UUID but not version 4 (RFC 9562 variant)' };
  return null;
}

export const idFormat = defineCheck({
  id: 'format.ids-uuid',
  title: 'Every identifier in every JSON response is a UUID string (version 4 assumed)',
  requirements: ['FMT-ID-UUID', 'FMT-ID-UUID-V4'],
  level: 'documented',
  needs: [],
  tags: ['cross-cutting', 'format'],
  async run(ctx: CheckContext) {
    judgeRecordedBodies(
      ctx,
      'Identifier is not a UUID',
      (key, value) => judgeId(key, value),
      (key, value) => (ID_KEYS.has(key) && typeof value === 'string' ? ['FMT-ID-UUID', 'FMT-ID-UUID-V4'] : []),
    );
  },
});
