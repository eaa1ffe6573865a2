// The main merchant's one webhook endpoint, shared by the whole run when there is no control API (a black-box run, or
// a base URL without one). It is pointed once, by the first check that needs deliveries, at one path of the suite's
// receiver; each delivery is routed by its data.paymentId (data.payoutId) to the check that created that payment, and
// answered as that check asked (2xx, 500, or too slowly): a failing or slow receiver is per check, not per endpoint,
// so webhook checks run beside each other and beside the rest. What needs the endpoint itself stays alone: rotating
// the secret (every other check verifies with it) and the test event (it carries no payment to route by).
import { randomUUID } from 'node:crypto';
import type { HttpClient } from '../http/client.ts';
import type { Delivery, EndpointBehaviour, ReceiverEndpoint, WebhookReceiver } from './receiver.ts';
import { createdPaymentId } from '../created-payments.ts';

/** How the run's endpoint was pointed at the receiver: the secret it signs with, or why it could not be. */
export type RunEndpointSetup = { ok: true; secret: string } | { ok: false; refusal: Error };

/** Where a delivery's body says it belongs: data.paymentId, else data.payoutId. */
export function subjectIdOf(json: unknown): string | undefined {
  const data = (json as { data?: { paymentId?: unknown; payoutId?: unknown } } | undefined)?.data;
  const id = data?.paymentId ?? data?.payoutId;
  return typeof id === 'string' ? id : undefined;
}

export class RunEndpoint {
  readonly path = `/run/${randomUUID()}`;
  /** Payment id → the check that created it. */
  private readonly owners = new Map<string, string>();
  /** The endpoint of each check that listens now (from webhookSubject until its cleanup). */
  private readonly listening = new Map<string, ReceiverEndpoint>();
  /** The premises the pointing consulted (its request bodies, the secret's field): every listening check consults them. */
  readonly premisesUsed: string[] = [];
  private setup: Promise<RunEndpointSetup> | undefined;
  private restore: (() => Promise<void>) | undefined;

  constructor(private readonly receiver: WebhookReceiver) {
    receiver.route(this.path, (json) => {
      const id = subjectIdOf(json);
      const owner = id === undefined ? undefined : this.owners.get(id);
      return owner === undefined ? undefined : this.listening.get(owner);
    });
  }

  get url(): string {
    return `${this.receiver.publicUrl}${this.path}`;
  }

  /** HttpClient's response observer: every 201 of POST /v1/payments makes its check the owner of the payment's deliveries. */
  readonly observe = (
    _client: HttpClient,
    request: { method: string; path: string; checkId: string },
    response: { status: number; json: unknown },
  ): void => {
    const id = createdPaymentId(request, response);
    if (id === undefined) return;
    this.owners.set(id, request.checkId);
    // A delivery sent before the create was answered (a payment.created an implementation should not send) is its too.
    const endpoint = this.listening.get(request.checkId);
    if (endpoint) this.receiver.claim((delivery: Delivery) => delivery.path === this.path && subjectIdOf(delivery.json) === id, endpoint);
  };

  /** Points the endpoint at the receiver once for the run (`point` does it and says how to undo it); later calls share the outcome. */
  pointOnce(point: (url: string) => Promise<{ secret: string; restore: () => Promise<void> }>): Promise<RunEndpointSetup> {
    this.setup ??= point(this.url).then(
      ({ secret, restore }) => {
        this.restore = restore;
        return { ok: true as const, secret };
      },
      (refusal: unknown) => ({ ok: false as const, refusal: refusal instanceof Error ? refusal : new Error(String(refusal)) }),
    );
    return this.setup;
  }

  /** True once the endpoint was pointed at the receiver (a check alone that repoints it restores it to this). */
  get pointed(): boolean {
    return this.restore !== undefined;
  }

  /** A check alone rotated the secret (to learn it, or to judge rotation): every later delivery is signed with `secret`. */
  adoptSecret(secret: string): void {
    if (this.setup) this.setup = Promise.resolve({ ok: true, secret });
  }

  /** The current secret, for a check that listens (after pointOnce). */
  async secret(): Promise<RunEndpointSetup> {
    return this.setup ?? { ok: false, refusal: new Error('the run endpoint was never pointed') };
  }

  /** `checkId`'s deliveries from now on, answered with `behaviour`; earlier ones of its payments are moved to it. */
  listen(checkId: string, behaviour: EndpointBehaviour): ReceiverEndpoint {
    const endpoint = this.receiver.routedEndpoint(this.path, behaviour);
    this.listening.set(checkId, endpoint);
    this.receiver.claim((delivery) => {
      const id = delivery.path === this.path ? subjectIdOf(delivery.json) : undefined;
      return id !== undefined && this.owners.get(id) === checkId;
    }, endpoint);
    return endpoint;
  }

  /** The check ended: later deliveries of its payments (retries it caused) are answered 200 and kept for the run. */
  release(checkId: string): void {
    this.listening.delete(checkId);
  }

  /** Puts the endpoint back as the run found it (end of the run). */
  async close(): Promise<void> {
    const restore = this.restore;
    this.restore = undefined;
    await restore?.().catch(() => undefined);
  }
}
