// Cross-cutting, fed by the recorder: every timestamp in every JSON body the service returned is an
// ISO 8601 date-time in UTC with millisecond precision and a trailing Z (2026-11-21T10:00:00.000Z).
// A timestamp is a string field named `*At`, `timestamp`, `from` or `to`, or any string that starts
// like a date (YYYY-MM-DD), so undocumented fields are judged too.
import type { CheckContext } from '../../context.ts';
import { defineCheck } from '../../registry.ts';
import { judgeRecordedBodies, type FieldProblem } from './json-fields.ts';

const TIMESTAMP_KEY = /(^|[a-z])At$|^timestamp$|^from$|^to$/;
const LOOKS_LIKE_DATE = /^\d{4}-\d{2}-\d{2}/;
const ISO_UTC = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]00:?00)$/;
const MILLIS_Z = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

export function judgeTimestamp(key: string, value: unknown): FieldProblem | null {
  const named = TIMESTAMP_KEY.test(key);
  if (typeof value !== 'string') {
    return named && value !== null && typeof value !== 'object'
      ? { requirement: 'FMT-TIMESTAMP-ISO8601-UTC', problem: `timestamp is a ${typeof value}, not an ISO 8601 string` }
      : null;
  }
  if (!named && !LOOKS_LIKE_DATE.test(value)) return null;
  if (!ISO_UTC.test(value) || Number.isNaN(Date.parse(value)))
    return { requirement: 'FMT-TIMESTAMP-ISO8601-UTC', problem: 'not an ISO 8601 date-time in UTC' };
  if (!MILLIS_Z.test(value))
    return { requirement: 'FMT-TIMESTAMP-MILLIS-Z', problem: 'UTC date-time without exactly 3 fractional digits and a trailing Z' };
  if (new Date(value).toISOString() !== value) return { requirement: 'FMT-TIMESTAMP-ISO8601-UTC', problem: 'not a real calendar instant' };
  return null;
}

export const timestampFormat = defineCheck({
  id: 'format.timestamps-utc-millis',
  title: 'Every timestamp in every JSON response is ISO 8601 UTC with milliseconds and a trailing Z',
  requirements: ['FMT-TIMESTAMP-ISO8601-UTC', 'FMT-TIMESTAMP-MILLIS-Z'],
  level: 'documented',
  needs: [],
  tags: ['cross-cutting', 'format'],
  async run(ctx: CheckContext) {
    judgeRecordedBodies(
      ctx,
      'Timestamp not in the documented format',
      (key, value) => judgeTimestamp(key, value),
      (key, value) =>
        TIMESTAMP_KEY.test(key) || (typeof value === 'string' && LOOKS_LIKE_DATE.test(value))
          ? ['FMT-TIMESTAMP-ISO8601-UTC', 'FMT-TIMESTAMP-MILLIS-Z']
          : [],
    );
  },
});
