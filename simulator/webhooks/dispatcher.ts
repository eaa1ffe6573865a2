// Runs delivery attempts: the first at once, each retry as a timer on the virtual clock, every
// outcome recorded on the delivery. Work is tracked on the clock so `advance()` answers only once
// the attempts it fired have finished (and the retries they scheduled within the window have run).
import { setMaxListeners } from 'node:events';
import type { Agent } from 'undici';
import type { TimerHandle, VirtualClock } from '../clock/virtual-clock.ts';
import type { BuildAttemptRequest } from './delivery-headers.ts';
import type { DeliveryRecord, DeliveryStore } from './delivery-store.ts';
import { postWebhook, type FetchLike, type PostOutcome } from './http-post.ts';
import { KeyedLimiter } from './keyed-limiter.ts';
import { attemptInstant, type RetryScheduler } from './retry-schedule.ts';

// undici is loaded on the first delivery, not at start-up: evaluating it cost `stablepay start` about a tenth of its
// time to the banner, and most runs send no webhook before they are ready.
let undiciLoading: Promise<typeof import('undici')> | undefined;
const loadUndici = (): Promise<typeof import('undici')> => (undiciLoading ??= import('undici'));

export interface DispatcherConfig {
  clock: VirtualClock;
  deliveries: DeliveryStore;
  /** The merchant's current signing secret, read at each attempt (rotation applies at once). */
  secretFor: (merchantId: string) => string | undefined;
  /** Injected fetch; when absent, undici's fetch over a dedicated agent. */
  fetch?: FetchLike;
  timeoutMs: number;
  /** When the attempt after a failed one is due (spec §6 schedule). */
  nextAttempt: RetryScheduler;
  /** The signed request of one attempt. */
  buildRequest: BuildAttemptRequest;
  userAgent: string;
  concurrencyPerOrigin: number;
}

export class DeliveryDispatcher {
  private readonly retryTimers = new Map<string, TimerHandle>();
  private readonly running = new Set<Promise<void>>();
  private readonly closing = new AbortController();
  private readonly limiter: KeyedLimiter;
  /** Our own agent (made with the first delivery), so close() can drop its keep-alive sockets without touching the global one. */
  private agent: Agent | undefined;

  constructor(private readonly config: DispatcherConfig) {
    // Every in-flight attempt listens for close; there are legitimately many at once.
    setMaxListeners(0, this.closing.signal);
    this.limiter = new KeyedLimiter(config.concurrencyPerOrigin);
  }

  get closed(): boolean {
    return this.closing.signal.aborted;
  }

  /** Starts attempt 1 now. */
  start(record: DeliveryRecord): void {
    if (this.closed) return;
    this.run(record, 1, record.createdAtMs);
  }

  /** Cancels pending retries, aborts in-flight requests and waits until nothing touches a record. */
  async close(): Promise<void> {
    if (!this.closed) {
      this.closing.abort();
      for (const handle of this.retryTimers.values()) handle.cancel();
      this.retryTimers.clear();
      this.limiter.close();
    }
    await Promise.allSettled([...this.running]);
    await this.agent?.destroy();
  }

  private run(record: DeliveryRecord, number: number, scheduledAt: number): Promise<void> {
    const work = this.attempt(record, number, scheduledAt).catch((err: unknown) => {
      // A defect here must not strand the delivery as `pending` forever: record it and retry on schedule.
      if (this.closed) return;
      const nowIso = this.config.clock.nowIso();
      const error = `internal error: ${err instanceof Error ? err.message : String(err)}`;
      this.config.deliveries.recordAttempt(record, { number, attemptedAt: nowIso, statusCode: null, durationMs: 0, error }, nowIso);
      this.afterFailure(record, number, scheduledAt);
    });
    this.running.add(work);
    void work.finally(() => this.running.delete(work));
    return this.config.clock.track(work);
  }

  private async attempt(record: DeliveryRecord, number: number, scheduledAt: number): Promise<void> {
    const { clock, deliveries } = this.config;
    this.retryTimers.delete(record.id);
    const release = await this.limiter.acquire(new URL(record.url).origin);
    try {
      if (this.closed) return;
      // Stamped when the request can actually go out, so a queued attempt is not signed stale.
      const instantMs = attemptInstant(scheduledAt, clock.now());
      const outcome = await this.send(record, number, instantMs);
      if (outcome.abandoned || this.closed) return;
      const nowIso = clock.nowIso();
      deliveries.recordAttempt(record, {
        number,
        attemptedAt: new Date(instantMs).toISOString(),
        statusCode: outcome.statusCode,
        durationMs: outcome.durationMs,
        error: outcome.error,
      }, nowIso);
      if (outcome.error === null) deliveries.finish(record, 'succeeded', nowIso);
      else this.afterFailure(record, number, scheduledAt);
    } finally {
      release();
    }
  }

  private async send(record: DeliveryRecord, number: number, instantMs: number): Promise<PostOutcome> {
    const secret = this.config.secretFor(record.merchantId);
    // Unreachable while endpoints cannot be deleted; kept so a future DELETE cannot send unsigned.
    if (secret === undefined) {
      return { statusCode: null, error: 'no webhook endpoint configured', durationMs: 0, abandoned: false };
    }
    const request = this.config.buildRequest({ instantMs, secret, rawBody: record.rawBody, userAgent: this.config.userAgent, attempt: number });
    const transport = await this.transport();
    return postWebhook(transport.fetch, {
      url: record.url,
      headers: request.headers,
      body: request.body,
      timeoutMs: this.config.timeoutMs,
      closeSignal: this.closing.signal,
      ...(transport.dispatcher ? { dispatcher: transport.dispatcher } : {}),
    });
  }

  /** The injected fetch, or undici's over our agent. */
  private async transport(): Promise<{ fetch: FetchLike; dispatcher?: Agent }> {
    if (this.config.fetch) return { fetch: this.config.fetch };
    const undici = await loadUndici();
    this.agent ??= new undici.Agent({ connections: this.config.concurrencyPerOrigin });
    return { fetch: undici.fetch, dispatcher: this.agent };
  }

  private afterFailure(record: DeliveryRecord, number: number, scheduledAt: number): void {
    const { clock, deliveries } = this.config;
    const next = this.config.nextAttempt(scheduledAt, number);
    const nowIso = clock.nowIso();
    if (next === null) {
      deliveries.finish(record, 'failed', nowIso);
      return;
    }
    const { dueAt } = next;
    deliveries.scheduleNext(record, dueAt, nowIso);
    const handle = clock.schedule(dueAt, () => this.run(record, next.number, dueAt));
    this.retryTimers.set(record.id, handle);
  }
}
