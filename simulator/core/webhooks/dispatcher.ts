// Runs delivery attempts: the first at once, each retry as a timer on the merchant's virtual clock, every
// outcome recorded on the delivery. Attempts are fire-and-forget from the clock's point of view:
// a timer only starts the request, so advancing the clock never waits on a receiver (a dead one
// costs its own 10 real seconds per attempt and nobody else's). A retry whose due time the clock
// has already passed while the previous attempt was in flight goes out at once, stamped with its
// scheduled virtual instant, so the schedule stays exact however the clock was moved.
import { setMaxListeners } from 'node:events';
import type { Agent } from 'undici';
import type { TimerHandle, VirtualClock } from '../clock/virtual-clock.ts';
import type { BuildAttemptRequest } from './delivery-headers.ts';
import type { DeliveryRecord, DeliveryStore } from './delivery-store.ts';
import { postWebhook, type FetchLike, type PostOutcome } from './http-post.ts';
import { KeyedLimiter } from './keyed-limiter.ts';
import type { RetryScheduler } from './retry-schedule.ts';
import type { ChaosEffect, SendAttempt, WrapSend } from './chaos.ts';

/** One finished attempt, for the log (no secret, no body; the URL as sent, printable by the caller). */
export interface AttemptReport {
  merchant: string;
  deliveryId: string;
  event: string;
  paymentId: string | null;
  payoutId: string | null;
  attempt: number;
  url: string;
  statusCode: number | null;
  error: string | null;
  ms: number;
  outcome: 'succeeded' | 'retrying' | 'failed';
  nextAttemptAt: string | null;
  /** Chaos effects applied to this attempt (only with a chaos plan). */
  chaos?: ChaosEffect[];
}

// undici is loaded on the first delivery, not at start-up: evaluating it cost `stablepay start` about a tenth of its
// time to the banner, and most runs send no webhook before they are ready.
let undiciLoading: Promise<typeof import('undici')> | undefined;
// Through `default` (module.exports): the one shape both Node's CommonJS interop and the built bundle's chunk give.
const loadUndici = (): Promise<typeof import('undici')> =>
  (undiciLoading ??= import('undici').then((loaded) => (loaded as unknown as { default: typeof import('undici') }).default));

export interface DispatcherConfig {
  /** Told about every recorded attempt (the simulator's delivery log). */
  onAttempt?: (report: AttemptReport) => void;
  /** A wrapper of each attempt's send (opt-in chaos, chaos.ts); absent, attempts go out as scheduled. */
  wrapSend?: WrapSend;
  clock: VirtualClock;
  deliveries: DeliveryStore;
  /** The merchant's current signing secret, read at each attempt (rotation applies at once). */
  secretFor: (merchantId: string) => string | undefined;
  /** Destinations that can go away for good (listeners): an attempt finding no secret is dropped, not retried. */
  dropWhenGone?: boolean;
  /** The merchant's current endpoint URL, read at each attempt (a fixed URL applies to pending retries). */
  urlFor: (merchantId: string) => string | undefined;
  /** Injected fetch; when absent, undici's fetch over a dedicated agent. */
  fetch?: FetchLike;
  timeoutMs: number;
  /** When the attempt after a failed one is due (spec §6 schedule). */
  nextAttempt: RetryScheduler;
  /** The signed request of one attempt. */
  buildRequest: BuildAttemptRequest;
  userAgent: string;
  concurrencyPerOrigin: number;
  /**
   * Resolves once the records written so far are durable (durable mode): an attempt goes out only
   * after its delivery is on disk, so a receiver never sees an event a restart would not know of.
   * False: the attempt is not this process's to send (another process holds the delivery's lease, or made it).
   */
  beforeSend?: (record: DeliveryRecord, attempt: number) => Promise<boolean | undefined | void>;
}

export class DeliveryDispatcher {
  private readonly retryTimers = new Map<string, TimerHandle>();
  /** Deliveries with an attempt under way here, each with the token of the run that makes it (one at a time). */
  private readonly sending = new Map<string, symbol>();
  private readonly running = new Set<Promise<void>>();
  private readonly closing = new AbortController();
  private readonly limiter: KeyedLimiter;
  /** Our own agent (made with the first delivery), so close() can drop its keep-alive sockets without touching the global one. */
  private agent: Agent | undefined;
  private readonly sendAttempt: SendAttempt;

  constructor(private readonly config: DispatcherConfig) {
    // Every in-flight attempt listens for close; there are legitimately many at once.
    setMaxListeners(0, this.closing.signal);
    this.limiter = new KeyedLimiter(config.concurrencyPerOrigin);
    const send: SendAttempt = (record, number, instantMs) => this.send(record, number, instantMs);
    this.sendAttempt = config.wrapSend ? config.wrapSend(send, this.closing.signal) : send;
  }

  get closed(): boolean {
    return this.closing.signal.aborted;
  }

  /** Starts attempt 1 now. */
  start(record: DeliveryRecord): void {
    if (this.closed) return;
    this.run(record, 1, record.createdAtMs);
  }

  /**
   * Picks up a pending delivery read from the state directory: its next attempt (the one scheduled,
   * or the one in flight when the simulator stopped) goes out at its due time, at once if that
   * passed while the simulator was down.
   */
  resume(record: DeliveryRecord): void {
    if (this.closed || record.status !== 'pending' || record.nextAttemptAtMs === null) return;
    // Already due here (a takeover sweep may offer a delivery this process is about to send).
    if (this.retryTimers.has(record.id) || this.sending.has(record.id)) return;
    // The highest number made, not a count: a schedule may skip numbers, and a count would drift past the schedule.
    const number = lastAttemptNumber(record) + 1;
    const dueAt = record.nextAttemptAtMs;
    const clock = this.config.clock.for(record.merchantId);
    if (dueAt <= clock.now()) {
      void this.run(record, number, dueAt);
      return;
    }
    this.retryTimers.set(
      record.id,
      clock.schedule(dueAt, () => void this.run(record, number, dueAt)),
    );
  }

  /**
   * Resolves once no attempt is in flight, including retries that fell due while waiting. Only
   * tests and benchmarks need this: nothing in the service waits for a receiver.
   */
  async idle(): Promise<void> {
    while (this.running.size > 0) await Promise.allSettled([...this.running]);
  }

  /** A merchant reset: its pending retries are dropped, and an attempt in flight records nothing when it ends. */
  forget(merchantId: string): void {
    for (const [id, handle] of this.retryTimers) {
      if (!this.config.deliveries.has(merchantId, id)) continue;
      handle.cancel();
      this.retryTimers.delete(id);
    }
  }

  /** Its scheduled attempt, if any, is dropped (durable mode puts another version of the delivery in place). */
  drop(id: string): void {
    this.retryTimers.get(id)?.cancel();
    this.retryTimers.delete(id);
  }

  private forgotten(record: DeliveryRecord): boolean {
    return !this.config.deliveries.has(record.merchantId, record.id);
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
      if (this.closed || this.forgotten(record)) return;
      const nowIso = this.config.clock.for(record.merchantId).nowIso();
      const error = `internal error: ${err instanceof Error ? err.message : String(err)}`;
      this.config.deliveries.recordAttempt(record, { number, attemptedAt: nowIso, statusCode: null, durationMs: 0, error }, nowIso);
      this.afterFailure(record, number, scheduledAt);
    });
    this.running.add(work);
    void work.finally(() => this.running.delete(work));
    return work;
  }

  private async attempt(record: DeliveryRecord, number: number, scheduledAt: number): Promise<void> {
    // One attempt of a delivery at a time here: a second run (a timer armed again by a catch-up or a takeover while
    // this one is in flight) would pass the lease check with our own lease and send the same attempt twice.
    if (this.sending.has(record.id)) return;
    const clock = this.config.clock.for(record.merchantId);
    const run = Symbol(record.id);
    this.retryTimers.delete(record.id);
    this.sending.set(record.id, run);
    try {
      if (this.config.beforeSend && (await this.config.beforeSend(record, number)) === false) return;
      if (this.closed || this.forgotten(record)) return;
      // Another process may have made this attempt meanwhile (the record is brought up to date in place).
      if (record.status !== 'pending') return;
      // (An attempt numbered this or later is on the record; a schedule may skip numbers, so no count is assumed.)
      if (record.attempts.some((made) => made.number >= number)) {
        this.sending.delete(record.id);
        this.resume(record);
        return;
      }
      await this.deliverAttempt(record, number, scheduledAt, clock);
    } finally {
      // Only our own mark: the next attempt (started at once by afterFailure) may already hold the delivery.
      if (this.sending.get(record.id) === run) this.sending.delete(record.id);
    }
  }

  private async deliverAttempt(record: DeliveryRecord, number: number, scheduledAt: number, clock: VirtualClock): Promise<void> {
    const { deliveries } = this.config;
    const url = this.config.urlFor(record.merchantId);
    if (url !== undefined && url !== record.url) deliveries.retarget(record, url, clock.nowIso());
    const release = await this.limiter.acquire(new URL(record.url).origin);
    try {
      if (this.closed) return;
      // The attempt's virtual instant is its scheduled one (what the deliveries log and the
      // simulator's attempt-time header show); the signature uses wall time (delivery-headers.ts).
      const instantMs = scheduledAt;
      const outcome = await this.sendAttempt(record, number, instantMs);
      if (outcome.abandoned || this.closed || this.forgotten(record)) return;
      if (outcome.chaos) deliveries.countChaos(record, outcome.chaos);
      const nowIso = clock.nowIso();
      deliveries.recordAttempt(
        record,
        {
          number,
          attemptedAt: new Date(instantMs).toISOString(),
          statusCode: outcome.statusCode,
          durationMs: outcome.durationMs,
          error: outcome.error,
        },
        nowIso,
      );
      if (outcome.error === null) deliveries.finish(record, 'succeeded', nowIso);
      else this.afterFailure(record, number, scheduledAt);
      this.report(record, number, outcome, outcome.chaos);
    } finally {
      release();
    }
  }

  private report(record: DeliveryRecord, number: number, outcome: PostOutcome, chaos: ChaosEffect[] | undefined): void {
    const { onAttempt } = this.config;
    if (!onAttempt) return;
    const outcomeName = record.status === 'pending' ? 'retrying' : record.status;
    onAttempt({
      merchant: record.merchantId,
      deliveryId: record.id,
      event: record.event,
      paymentId: record.paymentId,
      payoutId: record.payoutId,
      attempt: number,
      url: record.url,
      statusCode: outcome.statusCode,
      error: outcome.error,
      ms: outcome.durationMs,
      outcome: outcomeName,
      nextAttemptAt: record.nextAttemptAtMs === null ? null : new Date(record.nextAttemptAtMs).toISOString(),
      ...(chaos && chaos.length > 0 ? { chaos } : {}),
    });
  }

  private async send(record: DeliveryRecord, number: number, instantMs: number): Promise<PostOutcome> {
    const secret = this.config.secretFor(record.merchantId);
    // A destination that is gone (a stopped listener; an endpoint, should one ever be deletable) is never sent unsigned.
    if (secret === undefined) {
      return { statusCode: null, error: 'no webhook endpoint configured', durationMs: 0, abandoned: this.config.dropWhenGone === true };
    }
    const request = this.config.buildRequest({
      instantMs,
      signedAtMs: this.config.clock.wallTime(),
      secret,
      deliveryId: record.id,
      rawBody: record.rawBody,
      userAgent: this.config.userAgent,
      attempt: number,
    });
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
    // This attempt is over (its outcome recorded): the delivery is free for its next one.
    this.sending.delete(record.id);
    const { deliveries } = this.config;
    const clock = this.config.clock.for(record.merchantId);
    const next = this.config.nextAttempt(scheduledAt, number);
    const nowIso = clock.nowIso();
    if (next === null) {
      deliveries.finish(record, 'failed', nowIso);
      return;
    }
    const { dueAt } = next;
    deliveries.scheduleNext(record, dueAt, nowIso);
    // The clock moved past the due time while this attempt was in flight: catch up now, in order.
    if (dueAt <= clock.now()) {
      void this.run(record, next.number, dueAt);
      return;
    }
    // The timer only starts the attempt (returns nothing to await), so the advance moves on.
    const handle = clock.schedule(dueAt, () => {
      void this.run(record, next.number, dueAt);
    });
    this.retryTimers.set(record.id, handle);
  }
}

/** The highest attempt number on the record (0 before the first). */
function lastAttemptNumber(record: DeliveryRecord): number {
  return record.attempts.reduce((highest, made) => Math.max(highest, made.number), 0);
}
