// Carries out the transition table's decisions: stores the next record, emits webhook events,
// sets and cancels expiry timers on the virtual clock, writes the ledger. Everything here is
// synchronous, so a transition and its bookkeeping can never interleave with another request.
import type { TimerHandle, VirtualClock } from '../clock/virtual-clock.ts';
import { ApiError, conflict, notFound, validationError } from '../http/errors.ts';
import type { Logger } from '../http/error-handler.ts';
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

export const DEFAULT_PAYMENT_TTL_MS = 3_600_000;

export interface PaymentServiceDeps {
  clock: VirtualClock;
  random: RandomSource;
  webhooks: Pick<WebhookService, 'emit'>;
  ledger: Ledger;
  logger: Logger;
  defaultTtlMs?: number;
}

export class PaymentService {
  readonly store = new PaymentStore();
  private readonly expiryTimers = new Map<string, TimerHandle>();

  constructor(private readonly deps: PaymentServiceDeps) {}

  /** Validate and create; 400 on invalid input, 409 when the externalId is held by a live payment. */
  create(merchantId: string, body: unknown, origin: PaymentOrigin): Payment {
    const now = this.deps.clock.now();
    const validation = validateCreatePayment(body, now);
    if (!validation.ok) throw validationError(validation.problems.list());
    const { payment, effects } = openPayment(
      { id: this.deps.random.uuid(), merchantId, origin, draft: validation.draft, defaultTtlMs: this.deps.defaultTtlMs ?? DEFAULT_PAYMENT_TTL_MS },
      now,
    );
    if (!this.store.insert(payment).ok) throw conflict(MESSAGES.externalIdInUse);
    this.carryOut(payment, effects);
    return payment;
  }

  /** A merchant's own payment, brought up to date with its expiry; 404 otherwise. */
  get(merchantId: string, id: string): Payment {
    const payment = this.store.getOwned(merchantId, id);
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
    return result.payment;
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
    const result = transition(current, event, this.deps.clock.now());
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
