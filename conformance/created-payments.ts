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

/** Cancels in small parallel batches: a run creates thousands, the implementation should not see a burst. */
const PARALLEL = 8;

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
   * Every payment a cleanup sent (or was about to send) a DELETE for, noted before the request leaves and dropped once
   * it is answered with a refusal: whether or not its exchange was recorded by the time a run-level check judges, the
   * cancel may have taken effect.
   */
  readonly cancelsSent = new Set<string>();

  /** Cancels every payment `checkId` created; returns how many answered 200 (were still ACTIVE). */
  async cancelActive(checkId: string): Promise<number> {
    const created = this.byCheck.get(checkId) ?? [];
    this.byCheck.delete(checkId);
    let cancelled = 0;
    for (let i = 0; i < created.length; i += PARALLEL) {
      const batch = created.slice(i, i + PARALLEL);
      for (const { id } of batch) this.cancelsSent.add(id);
      const answers = await Promise.all(
        batch.map(({ id, client }) =>
          client.delete(`/v1/payments/${encodeURIComponent(id)}`).then(
            (r) => {
              // Answered and refused (a payment no longer ACTIVE answers 400): that cancel took no effect.
              if (r.status < 200 || r.status >= 300) this.cancelsSent.delete(id);
              return r.status;
            },
            () => 0,
          ),
        ),
      );
      cancelled += answers.filter((status) => status === 200).length;
    }
    return cancelled;
  }
}
