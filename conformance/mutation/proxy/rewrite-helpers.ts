// Small edits the proxy's faults and controls share: find the payments in a response, shift
// decimal strings and instants, reorder keys.
import type { ProxiedResponse } from './fault-proxy.ts';

export type Json = Record<string, unknown>;

const PAYMENT_PATH = /^\/v1\/payments(\/[^/]+)?$/;

/** Every payment object in a /v1/payments response (the body itself, or the items of a list). */
export function paymentsIn(response: ProxiedResponse): Json[] {
  if (!PAYMENT_PATH.test(response.path) || response.status >= 300) return [];
  const body = response.json as Json | undefined;
  if (!body || typeof body !== 'object') return [];
  if (Array.isArray(body.data)) return body.data.filter((p): p is Json => !!p && typeof p === 'object' && 'status' in p);
  return typeof body.id === 'string' && typeof body.status === 'string' ? [body] : [];
}

/** Retrieve views only (GET/DELETE of one payment, list items): the ones carrying updatedAt. */
export function retrieveViews(response: ProxiedResponse): Json[] {
  return paymentsIn(response).filter((p) => 'updatedAt' in p);
}

export function isList(response: ProxiedResponse): boolean {
  return (
    response.method === 'GET' &&
    response.path === '/v1/payments' &&
    response.status === 200 &&
    Array.isArray((response.json as Json | undefined)?.data)
  );
}

/** A decimal string moved by `delta` units of its last written decimal place (or of 10^-scale). */
export function shiftDecimal(text: unknown, delta: bigint, scale?: number): unknown {
  if (typeof text !== 'string' || !/^\d+(\.\d+)?$/.test(text)) return text;
  const [whole, fraction = ''] = text.split('.');
  const places = scale ?? fraction.length;
  const units = BigInt(`${whole}${fraction.padEnd(places, '0')}`) + delta;
  if (units < 0n) return text;
  const digits = units.toString().padStart(places + 1, '0');
  return places ? `${digits.slice(0, -places)}.${digits.slice(-places)}` : digits;
}

export function shiftInstant(text: unknown, ms: number): unknown {
  return typeof text === 'string' && !Number.isNaN(Date.parse(text)) ? new Date(Date.parse(text) + ms).toISOString() : text;
}

/** The same JSON value with every object's keys in reverse order. */
export function reverseKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(reverseKeys);
  if (value && typeof value === 'object')
    return Object.fromEntries(
      Object.entries(value)
        .reverse()
        .map(([k, v]) => [k, reverseKeys(v)]),
    );
  return value;
}

/** How many times each key was seen: lets a fault change a value on every later read. */
export class ReadCounter {
  private readonly counts = new Map<string, number>();
  next(key: string): number {
    const n = (this.counts.get(key) ?? 0) + 1;
    this.counts.set(key, n);
    return n;
  }
}
