// Carries out the transition table's decisions: stores the next record, emits webhook events,
// sets and cancels expiry timers on the virtual clock, writes the ledger. Everything here is
// synchronous, so a transition and its bookkeeping can never interleave with another request.
import type { TimerHandle, VirtualClock } from '../clock/virtual-clock.ts';
import { ApiError, conflict, notFound, validationError } from '../http/errors.ts';
import type { Logger } from '../http/error-handler.ts';
import type { ActiveFaults } from '../faults/active-faults.ts';
import { NO_FAULTS } from '../faults/active-faults.ts';
import { MESSAGES } from '../http/messages.ts';
import type { RandomSource } from '../support/random.ts';
import type { Ledger } from '../transactions/ledger.ts';
import type { WebhookService } from '../webhooks/index.ts';
import type { PaymentListFilter } from './payment-store.ts';
import { PaymentStore } from './payment-store.ts';
import type { PaymentEffect, PaymentEvent, TransitionResult } from './state-machine.ts';
import { openPayment, transition } from './state-machine.ts';
import type { Payment, PaymentOrigin } from './types.ts';
import { validateCreatePayment } from './validate-create.ts';
import { isPlainObject } from '../validation/index.ts';

export const DEFAULT_PAYMENT_TTL_MS = 3_600_000;

export interface PaymentServiceDeps {
  clock: VirtualClock;
  random: RandomSource;
  webhooks: Pick<WebhookService, 'emit'>;
  ledger: Ledger;
  logger: Logger;
  defaultTtlMs?: number;
  /** Injected faults (simulator/faults/); none by default. */
  faults?: ActiveFaults;
}

export class PaymentService {
  readonly store: PaymentStore;
  private readonly expiryTimers = new Map<string, TimerHandle>();
  private readonly faults: ActiveFaults;

  constructor(private readonly deps: PaymentServiceDeps) {
    this.faults = deps.faults ?? NO_FAULTS;
    this.store = new PaymentStore(this.faults);
  }

  /** Validate and create; 400 on invalid input, 409 when the externalId is held by a live payment. */
  create(merchantId: string, body: unknown, origin: PaymentOrigin, { uniquenessChecked = false } = {}): Payment {
    const now = this.deps.clock.now();
    const validation = validateCreatePayment(body, now, this.faults);
    if (!validation.ok) throw validationError(validation.problems.list());
    const { payment, effects } = openPayment(
      { id: this.deps.random.uuid(), merchantId, origin, draft: validation.draft, defaultTtlMs: this.deps.defaultTtlMs ?? DEFAULT_PAYMENT_TTL_MS },
      now,
      this.faults,
    );
    if (!this.store.insert(payment, { checkLiveExternalId: !uniquenessChecked }).ok) throw conflict(MESSAGES.externalIdInUse);
    this.carryOut(payment, effects);
    return payment;
  }

  /**
   * The `external-id-check-then-insert` fault: uniqueness is looked up first and the payment
   * inserted after an await (a database round trip), so concurrent creates all pass the lookup.
   */
  async createCheckingFirst(merchantId: string, body: unknown, origin: PaymentOrigin): Promise<Payment> {
    const externalId = isPlainObject(body) && typeof body.externalId === 'string' ? body.externalId : undefined;
    if (externalId !== undefined && this.store.liveHolder(merchantId, externalId) !== undefined) throw conflict(MESSAGES.externalIdInUse);
    await new Promise((resolve) => setTimeout(resolve, 5));
    return this.create(merchantId, body, origin, { uniquenessChecked: true });
  }

  /** A merchant's own payment, brought up to date with its expiry; 404 otherwise. */
  get(merchantId: string, id: string): Payment {
    const payment = this.faults['other-merchant-payment-visible'] ? this.store.get(id) : this.store.getOwned(merchantId, id);
    if (!payment) throw notFound();
    return this.expireIfDue(payment);
  }

  /** Any merchant's payment (control API acts as the customer, who has only the id). */
  find(id: string): Payment | undefined {
    const payment = this.store.get(id);
    return payment && this.expireIfDue(payment);
  }

  cancel(merchantId: string, id: string): Payment {
    const payment = this.get(merchantId, id);
    const result = this.apply(payment.id, { type: 'merchant.cancelled' });
    if (!result.ok) throw new ApiError(400, MESSAGES.paymentNotActive(payment.status));
    return this.faults['cancel-returns-stale-payment'] ? payment : result.payment;
  }

  list(merchantId: string, filter: PaymentListFilter): { items: Payment[]; hasMore: boolean } {
    const page = this.store.list(merchantId, filter);
    if (!page) throw validationError([{ path: ['cursor'], message: 'cursor is not the id of one of your payments' }]);
    return page;
  }

  /** Run one event through the table and carry out its effects. Refusals change nothing. */
  apply(id: string, event: PaymentEvent): TransitionResult {
    const current = this.store.get(id);
    if (!current) throw notFound();
    const result = transition(current, event, this.deps.clock.now(), this.faults);
    if (result.ok) {
      this.store.update(result.payment);
      this.carryOut(result.payment, result.effects);
    }
    return result;
  }

  /** Cancel every pending expiry timer (shutdown). */
  close(): void {
    for (const timer of this.expiryTimers.values()) timer.cancel();
    this.expiryTimers.clear();
  }

  /** A read after expiresAt but before the timer ran (real-time drift) still sees EXPIRED. */
  private expireIfDue(payment: Payment): Payment {
    if (payment.status !== 'ACTIVE' || this.deps.clock.now() < payment.expiresAt) return payment;
    const result = this.apply(payment.id, { type: 'clock.expired' });
    return result.ok ? result.payment : payment;
  }

  private carryOut(payment: Payment, effects: PaymentEffect[]): void {
    for (const effect of effects) {
      switch (effect.kind) {
        case 'schedule-expiry':
          this.expiryTimers.get(payment.id)?.cancel();
          this.expiryTimers.set(
            payment.id,
            this.deps.clock.schedule(effect.at, () => {
              this.expiryTimers.delete(payment.id);
              const latest = this.store.get(payment.id);
              if (latest?.status === 'ACTIVE') this.apply(payment.id, { type: 'clock.expired' });
            }),
          );
          break;
        case 'cancel-expiry':
          this.expiryTimers.get(payment.id)?.cancel();
          this.expiryTimers.delete(payment.id);
          break;
        case 'record-settlement':
          this.deps.ledger.record(payment);
          break;
        case 'emit':
          try {
            this.deps.webhooks.emit(payment.merchantId, { type: effect.event, paymentId: payment.id, externalId: payment.externalId });
          } catch (error) {
            // The transition has happened; a webhook failure must not turn it into a 500.
            this.deps.logger.error(`webhook emit failed for ${effect.event} of payment ${payment.id}`, error);
          }
          break;
      }
    }
  }
}
