// One history per payment, over the whole run: every view of a payment any check read (the create answer, GET by id,
// the DELETE answer), with when the request started and ended on the implementation's clock, the body it was created
// from, and every cancel the run asked for. Fed by the HTTP client's observer whatever check or path made the request,
// so the run-level checks (checks/history/) judge the invariants on every payment the run saw, not only on the payments
// of the check that cares. List items are not views here: their shape is not shown.
import type { HttpClient } from '../http/client.ts';
import type { Payment, PaymentCreateRequest } from '@stablepay/contract/types';

export interface PaymentView {
  payment: Payment;
  /** How it was read. */
  via: 'create' | 'get' | 'cancel';
  checkId: string;
  /** Local wall-clock instants when the request started and when its answer was in (ms): they order the views. */
  startedAt: number;
  endedAt: number;
}

export interface PaymentHistory {
  id: string;
  /** The create request's body, when the run created it. */
  request?: PaymentCreateRequest;
  /** The client (merchant credential) that last read it: only that merchant may read it again. */
  client?: HttpClient;
  views: PaymentView[];
}

const PAYMENT_PATH = /^\/v1\/payments\/([^/?]+)$/;

export class PaymentHistories {
  private readonly byId = new Map<string, PaymentHistory>();
  /** HttpClient's response observer (composed with the others in index.ts). */
  readonly observe = (
    client: HttpClient,
    request: { method: string; path: string; checkId: string; json?: unknown; startedAtMs?: number },
    response: { status: number; json: unknown },
  ): void => {
    // Wall time, not the implementation's: the suite's estimate of a moved clock can be off by a request's round trip,
    // which could put two sequential reads in the wrong order.
    const endedAt = Date.now();
    const startedAt = request.startedAtMs === undefined ? endedAt : Math.min(endedAt, request.startedAtMs);
    const payment = response.json as Payment | undefined;
    if (!payment || typeof payment !== 'object' || typeof payment.id !== 'string') return;
    let via: PaymentView['via'] | null = null;
    if (request.method === 'POST' && request.path === '/v1/payments' && response.status === 201) via = 'create';
    const byPath = PAYMENT_PATH.exec(request.path);
    if (byPath && decodeURIComponent(byPath[1]!) === payment.id && response.status === 200) {
      if (request.method === 'GET') via = 'get';
      if (request.method === 'DELETE') via = 'cancel';
    }
    if (!via) return;
    const history = this.of(payment.id);
    if (via === 'create' && request.json && typeof request.json === 'object') history.request = request.json as PaymentCreateRequest;
    history.client = client;
    history.views.push({ payment, via, checkId: request.checkId, startedAt, endedAt });
  };

  private of(id: string): PaymentHistory {
    let history = this.byId.get(id);
    if (!history) this.byId.set(id, (history = { id, views: [] }));
    return history;
  }

  get(id: string): PaymentHistory | undefined {
    return this.byId.get(id);
  }

  all(): PaymentHistory[] {
    return [...this.byId.values()];
  }
}

/**
 * The views of a history that can be put in one order: each starts after the previous one's answer was in. Views
 * read concurrently (a burst of GETs) may have been produced in another order than they were answered, so of an
 * overlapping group only the first answered is kept.
 */
export function sequentialViews(history: PaymentHistory): PaymentView[] {
  const byEnd = [...history.views].sort((a, b) => a.endedAt - b.endedAt);
  const kept: PaymentView[] = [];
  for (const view of byEnd) if (kept.length === 0 || view.startedAt >= kept.at(-1)!.endedAt) kept.push(view);
  return kept;
}
