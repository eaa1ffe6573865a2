// Evidence lines for the premise book: what a discovery sent and what it saw, short enough for a report table.
import type { HttpResponse } from '../../http/client.ts';
import type { PremiseEvidence } from '../book.ts';

const LIMIT = 240;

function clip(text: string): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > LIMIT ? `${flat.slice(0, LIMIT)}…` : flat;
}

export function sentLine(method: string, path: string, body?: unknown): string {
  return clip(`${method} ${path}${body === undefined ? '' : ` ${JSON.stringify(body)}`}`);
}

export function seenLine(response: Pick<HttpResponse, 'status' | 'text'>, detail?: string): string {
  return clip(`${response.status}${detail ? ` (${detail})` : ''} ${response.text}`);
}

export function evidenceOf(
  method: string,
  path: string,
  body: unknown,
  response: Pick<HttpResponse, 'status' | 'text'>,
  detail?: string,
): PremiseEvidence {
  return { sent: sentLine(method, path, body), seen: seenLine(response, detail) };
}

/** A 4xx answer refuses what was sent; a 5xx or no answer says nothing about it. */
export function refusedBy(status: number): boolean {
  return status >= 400 && status < 500;
}
