// `stablepay replay-delivery`: finds a recorded webhook delivery in a report (a report directory, its
// conformance.json, or a file holding one finding or one delivery) and re-posts it, byte for byte, to a URL, so an
// implementer can feed their own verifier exactly what the suite received. `--resign` instead signs the recorded
// body afresh with the secret from an environment variable, giving a correct delivery to compare with.
import { request } from 'undici';
import { UsageError } from '../usage-error.ts';
import { readJsonReport } from '../read-json-report.ts';
import { WEBHOOK_SECRET_VARIABLE, type DeliveryEvidence } from './evidence.ts';
import { sign } from './signature.ts';

/** A delivery found in a report, with the finding that carries it (when it came from one). */
export interface FoundDelivery {
  delivery: DeliveryEvidence;
  finding: { checkId?: string; requirement?: string; title?: string } | null;
}

function isEvidence(value: unknown): value is DeliveryEvidence {
  const v = value as Partial<DeliveryEvidence> | null;
  return (
    typeof v === 'object' && v !== null && typeof v.id === 'string' && typeof v.bodyBase64 === 'string' && typeof v.headers === 'object'
  );
}

/** Every delivery a report file holds: a whole report (`failures[].delivery`), one finding (`.delivery`) or one delivery. */
export function deliveriesIn(document: unknown): FoundDelivery[] {
  if (isEvidence(document)) return [{ delivery: document, finding: null }];
  const doc = document as { failures?: unknown; delivery?: unknown } | null;
  if (doc && isEvidence(doc.delivery)) return [{ delivery: doc.delivery, finding: doc as FoundDelivery['finding'] }];
  if (doc && Array.isArray(doc.failures)) {
    const found = new Map<string, FoundDelivery>();
    for (const failure of doc.failures as { delivery?: unknown }[]) {
      if (isEvidence(failure.delivery) && !found.has(failure.delivery.id))
        found.set(failure.delivery.id, { delivery: failure.delivery, finding: failure as FoundDelivery['finding'] });
    }
    return [...found.values()];
  }
  return [];
}

/** `source`: a report directory (reads its conformance.json) or a JSON file. */
export function loadDeliveries(source: string): { file: string; deliveries: FoundDelivery[] } {
  const { file, document } = readJsonReport(source);
  return { file, deliveries: deliveriesIn(document) };
}

export function pickDelivery(file: string, deliveries: FoundDelivery[], id: string | undefined): FoundDelivery {
  if (deliveries.length === 0) throw new UsageError(`${file}: holds no webhook delivery (only webhook findings carry one)`);
  if (id === undefined) {
    if (deliveries.length === 1) return deliveries[0]!;
    throw new UsageError(
      `${file}: holds ${deliveries.length} deliveries; choose one with --delivery (${deliveries.map((d) => d.delivery.id).join(', ')})`,
    );
  }
  const found = deliveries.find((d) => d.delivery.id === id);
  if (!found) throw new UsageError(`${file}: no delivery ${id} (it holds ${deliveries.map((d) => d.delivery.id).join(', ')})`);
  return found;
}

/** Headers a client sets itself: never copied from the recording. */
const HOP_BY_HOP = new Set(['host', 'content-length', 'connection', 'transfer-encoding', 'keep-alive', 'expect']);

export interface ReplayRequest {
  method: string;
  headers: Record<string, string>;
  body: Buffer;
  /** What was changed from the recording (re-signing). */
  notes: string[];
}

/** The request to send: as recorded, or re-signed now with `secret` when given. */
export function replayRequest(delivery: DeliveryEvidence, resign: { secret: string; nowSeconds: number } | null): ReplayRequest {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(delivery.headers)) if (!HOP_BY_HOP.has(name.toLowerCase())) headers[name] = value;
  const body = Buffer.from(delivery.bodyBase64, 'base64');
  const notes: string[] = [];
  if (delivery.bodyRedacted)
    notes.push('the recorded body carried a secret and was redacted in the report: the body sent is the redacted one');
  if (resign) {
    const t = String(resign.nowSeconds);
    headers['x-service-timestamp'] = t;
    headers['x-service-signature'] = `t=${t},v1=${sign(resign.secret, t, body.toString('utf8'))}`;
    notes.push(`re-signed with $${WEBHOOK_SECRET_VARIABLE} at t=${t} (X-Service-Timestamp and X-Service-Signature replaced)`);
  }
  return { method: delivery.method || 'POST', headers, body, notes };
}

export async function sendReplay(to: string, replay: ReplayRequest, timeoutMs = 10_000): Promise<{ status: number; body: string }> {
  const response = await request(to, {
    method: replay.method as 'POST',
    headers: replay.headers,
    body: replay.body,
    headersTimeout: timeoutMs,
    bodyTimeout: timeoutMs,
  });
  return { status: response.statusCode, body: await response.body.text() };
}
