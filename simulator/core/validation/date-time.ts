// Strict RFC 3339 date-time parsing: Date.parse alone accepts "2026-02-30" (as 2 March).
const RFC3339 = /^(\d{4})-(\d{2})-(\d{2})[Tt](\d{2}):(\d{2}):(\d{2})(\.\d{1,9})?([Zz]|([+-])(\d{2}):(\d{2}))$/;

/** Date.UTC maps years 0..99 to 1900..1999; setUTCFullYear does not. */
function utc(year: number, month: number, day: number, hour = 0, minute = 0, second = 0, millis = 0): number {
  const date = new Date(0);
  date.setUTCFullYear(year, month - 1, day);
  date.setUTCHours(hour, minute, second, millis);
  return date.getTime();
}

function daysInMonth(year: number, month: number): number {
  return new Date(utc(year, month + 1, 0)).getUTCDate();
}

/** Milliseconds since the epoch for a valid RFC 3339 date-time, otherwise undefined. */
export function parseDateTime(value: string): number | undefined {
  const m = RFC3339.exec(value);
  if (!m) return undefined;
  const [year, month, day, hour, minute, second] = m.slice(1, 7).map(Number) as [number, number, number, number, number, number];
  if (month < 1 || month > 12 || day < 1 || day > daysInMonth(year, month)) return undefined;
  if (hour > 23 || minute > 59 || second > 59) return undefined;
  let offsetMinutes = 0;
  if (m[9]) {
    const oh = Number(m[10]);
    const om = Number(m[11]);
    if (oh > 23 || om > 59) return undefined;
    offsetMinutes = (m[9] === '-' ? -1 : 1) * (oh * 60 + om);
  }
  const millis = m[7] ? Number(m[7].slice(1, 4).padEnd(3, '0')) : 0;
  const at = utc(year, month, day, hour, minute, second, millis) - offsetMinutes * 60_000;
  return Number.isFinite(at) && Math.abs(at) <= 8.64e15 ? at : undefined;
}
