// The payments each check created, so the suite can cancel the ones still ACTIVE when the check ends. Left ACTIVE, the
// thousands of payments a run creates all expire at the first large clock jump of a later check, and their
// payment.expired deliveries load the implementation and the receiver exactly while a timing check measures retries
// to the second (webhooks.retry-schedule jumps 2 h). A check's own payments stay as they are while it runs, across
// its own clock jumps; only afterwards is each one it created cancelled (DELETE; a payment that is no longer ACTIVE
// answers 400, which is fine).
import type { HttpClient } from './http/client.ts';

interface Created {
  id: string;
  /** The client (merchant credential) that created it: only that merchant may cancel it. */
  client: HttpClient;
}

/** The id of the payment an exchange created: a 201 to POST /v1/payments whose body names one. */
export function createdPaymentId(
  request: { method: string; path: string },
  response: { status: number; json: unknown },
): string | undefined {
  if (request.method !== 'POST' || request.path !== '/v1/payments' || response.status !== 201) return undefined;
  const id = (response.json as { id?: unknown } | undefined)?.id;
  return typeof id === 'string' ? id : undefined;
}

/**
 * Cancels with this many DELETEs in flight at most: a run creates thousands, the implementation should not see a burst,
 * yet a check that created hundreds (fees.split-properties: about 300) must have them all cancelled within the runner's
 * cleanup limit. A pool, not batches: one slow answer holds up one lane, not the whole cleanup.
 */
export const CANCEL_CONCURRENCY = 16;

export class CreatedPayments {
  private readonly byCheck = new Map<string, Created[]>();

  /** HttpClient's response observer: remembers every 201 of POST /v1/payments with the check that made it. */
  readonly observe = (
    client: HttpClient,
    request: { method: string; path: string; checkId: string },
    response: { status: number; json: unknown },
  ): void => {
    const id = createdPaymentId(request, response);
    if (id === undefined) return;
    let list = this.byCheck.get(request.checkId);
    if (!list) this.byCheck.set(request.checkId, (list = []));
    list.push({ id, client });
  };

  /**
   * Every payment a cleanup sent (or was about to send) a DELETE for, noted before the request leaves and never
   * dropped: answered or not, cut off by the cleanup's time limit or not, the suite asked for that cancel.
   */
  readonly cancelsSent = new Set<string>();

  /**
   * Those of cancelsSent whose DELETE came back with a refusal (a payment no longer ACTIVE answers 400): that answer
   * says the cancel took no effect, unless another request of the suite cancelled it (a run-level check reads the
   * payment to tell).
   */
  readonly cancelsRefused = new Set<string>();

  /** Cancels every payment `checkId` created; returns how many answered 200 (were still ACTIVE). */
  async cancelActive(checkId: string): Promise<number> {
    const created = this.byCheck.get(checkId) ?? [];
    this.byCheck.delete(checkId);
    let cancelled = 0;
    let next = 0;
    const lane = async (): Promise<void> => {
      while (next < created.length) {
        const { id, client } = created[next++]!;
        this.cancelsSent.add(id);
        const status = await client.delete(`/v1/payments/${encodeURIComponent(id)}`).then(
          (r) => r.status,
          () => 0,
        );
        if (status === 200) cancelled += 1;
        if (status >= 300 || (status > 0 && status < 200)) this.cancelsRefused.add(id);
      }
    };
    await Promise.all(Array.from({ length: Math.min(CANCEL_CONCURRENCY, created.length) }, lane));
    return cancelled;
  }
}
