// Carries out the transition table's decisions: stores the next record, emits webhook events,
// sets and cancels expiry timers on the merchant's virtual clock, writes the ledger. Everything here is
// synchronous, so a transition and its bookkeeping can never interleave with another request.
import type { TimerHandle, VirtualClock } from '../clock/virtual-clock.ts';
import { Conflict, invalidFields, NotFound, refusedTransition } from '../refusals/refusals.ts';
import type { Logger } from '../support/logger.ts';
import type { RandomSource } from '../support/random.ts';
import type { WebhookService } from '../webhooks/index.ts';
import { CREATE_RULES, validateCreatePayment, type CreateRules } from './create-draft.ts';
import type { PaymentListFilter, PaymentRepository } from './payment-store.ts';
import { PaymentStore } from './payment-store.ts';
import { PAYMENT_REFUSALS } from '../refusals/payment-refusals.ts';
import type { PaymentEffect, PaymentEvent, TransitionResult } from './state-machine.ts';
import { openPayment, transition } from './state-machine.ts';
import type { Payment, PaymentOrigin } from './types.ts';

export const DEFAULT_PAYMENT_TTL_MS = 3_600_000;

/**
 * Where a payment's settlement is written once it is SUCCESSFUL (transactions/' Ledger). Declared
 * here, by its user, so the ledger may read payments without payments importing the ledger back.
 */
export interface SettlementRecorder {
  record(payment: Payment): unknown;
}

/**
 * Told of every stored change of a payment, right after the store has it: created (`previous`
 * undefined) or replaced by its next record. Declared here, by its user, like SettlementRecorder
 * (analytics' tallies fill it). Listeners must not throw.
 */
export interface PaymentChangeListener {
  changed(previous: Payment | undefined, next: Payment): void;
  /** Every payment of the merchant is gone (a merchant reset). */
  forgotten?(merchantId: string): void;
  /** One payment is gone (durable mode undoing a create the database refused). */
  removed?(payment: Payment): void;
}

export interface PaymentServiceDeps {
  clock: VirtualClock;
  random: RandomSource;
  webhooks: Pick<WebhookService, 'emit'>;
  ledger: SettlementRecorder;
  logger: Logger;
  defaultTtlMs?: number;
  /** Where payments are kept; a fresh in-memory store by default. */
  store?: PaymentRepository;
  /** The pure rules of the lifecycle; the composition root may replace any of them. */
  rules?: Partial<PaymentRules>;
  /** Told of every created payment and every transition, in order. */
  listeners?: readonly PaymentChangeListener[];
}

/** The pure functions the service runs: create validation and pricing, the "(none) -> ACTIVE" row, the table. */
export interface PaymentRules extends CreateRules {
  open: typeof openPayment;
  transition: typeof transition;
}

export const PAYMENT_RULES: PaymentRules = { ...CREATE_RULES, open: openPayment, transition };

export class PaymentService {
  readonly store: PaymentRepository;
  private readonly expiryTimers = new Map<string, TimerHandle>();
  private readonly rules: PaymentRules;

  constructor(private readonly deps: PaymentServiceDeps) {
    this.store = deps.store ?? new PaymentStore();
    this.rules = deps.rules ? { ...PAYMENT_RULES, ...deps.rules } : PAYMENT_RULES;
  }

  /** Validate and create; Invalid on bad input, Conflict when the externalId is held by a live payment. */
  create(merchantId: string, body: unknown, origin: PaymentOrigin): Payment {
    const now = this.deps.clock.for(merchantId).now();
    const validation = validateCreatePayment(body, now, this.rules);
    if (!validation.ok) throw invalidFields(validation.problems.list());
    const { payment, effects } = this.rules.open(
      {
        id: this.deps.random.uuid(),
        merchantId,
        origin,
        draft: validation.draft,
        defaultTtlMs: this.deps.defaultTtlMs ?? DEFAULT_PAYMENT_TTL_MS,
      },
      now,
    );
    if (!this.store.insert(payment).ok) throw new Conflict(PAYMENT_REFUSALS.externalIdInUse);
    this.changed(undefined, payment);
    this.carryOut(payment, effects);
    return payment;
  }

  /** A merchant's own payment, brought up to date with its expiry; NotFound otherwise. */
  get(merchantId: string, id: string): Payment {
    const payment = this.store.getOwned(merchantId, id);
    if (!payment) throw new NotFound();
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
    if (!result.ok) throw refusedTransition(result.refusal, { merchantCancel: PAYMENT_REFUSALS.notActive(payment.status) });
    return result.payment;
  }

  list(merchantId: string, filter: PaymentListFilter): { items: Payment[]; hasMore: boolean } {
    const page = this.store.list(merchantId, filter);
    if (!page) throw invalidFields([{ path: ['cursor'], message: PAYMENT_REFUSALS.foreignCursor }]);
    return page;
  }

  /** Run one event through the table and carry out its effects. Refusals change nothing. */
  apply(id: string, event: PaymentEvent): TransitionResult {
    const current = this.store.get(id);
    if (!current) throw new NotFound();
    const result = this.rules.transition(current, event, this.deps.clock.for(current.merchantId).now());
    if (result.ok) {
      this.store.update(result.payment);
      this.changed(current, result.payment);
      this.carryOut(result.payment, result.effects);
    }
    return result;
  }

  /**
   * Puts back payments read from the state directory (any order), and arms the expiry of every
   * ACTIVE one: one that expired while the simulator was down expires at start.
   */
  restore(payments: Iterable<Payment>): void {
    const sorted = [...payments].sort((a, b) => a.createdAt - b.createdAt || (a.id < b.id ? -1 : 1));
    for (const payment of sorted) {
      this.store.insert(payment);
      // Read models (analytics tallies) learn restored payments as they learn new ones.
      this.changed(undefined, payment);
      if (payment.status === 'ACTIVE') this.carryOut(payment, [{ kind: 'schedule-expiry', at: payment.expiresAt }]);
    }
  }

  /**
   * Durable mode: a payment as the database has it (undefined: gone), put in place without being reported; its
   * expiry timer and the read models follow. Effects of the transition that led there (events, ledger) are not
   * carried out again: they are records of their own.
   */
  applyRecord(id: string, payment: Payment | undefined): void {
    if (!this.store.applyRecord) throw new RangeError('durable mode needs a payment store that can apply records');
    const previous = this.store.applyRecord(id, payment);
    if (payment) this.changed(previous, payment);
    else if (previous) for (const listener of this.deps.listeners ?? []) listener.removed?.(previous);
    if (payment?.status === 'ACTIVE') this.carryOut(payment, [{ kind: 'schedule-expiry', at: payment.expiresAt }]);
    else {
      this.expiryTimers.get(id)?.cancel();
      this.expiryTimers.delete(id);
    }
  }

  /** A merchant reset: every payment of the merchant and its expiry timer are gone. Returns how many there were. */
  forget(merchantId: string): number {
    const ids = this.store.forget(merchantId);
    for (const id of ids) {
      this.expiryTimers.get(id)?.cancel();
      this.expiryTimers.delete(id);
    }
    for (const listener of this.deps.listeners ?? []) listener.forgotten?.(merchantId);
    return ids.length;
  }

  /** Cancel every pending expiry timer (shutdown). */
  close(): void {
    for (const timer of this.expiryTimers.values()) timer.cancel();
    this.expiryTimers.clear();
  }

  /** The task of every payment's expiry timer (one function for all, called with the payment's id). */
  private readonly expiryDue = (id: string): void => {
    this.expiryTimers.delete(id);
    const latest = this.store.get(id);
    if (latest?.status === 'ACTIVE') this.apply(id, { type: 'clock.expired' });
  };

  private changed(previous: Payment | undefined, next: Payment): void {
    for (const listener of this.deps.listeners ?? []) listener.changed(previous, next);
  }

  /** A read after expiresAt but before the timer ran (real-time drift) still sees EXPIRED. */
  private expireIfDue(payment: Payment): Payment {
    if (payment.status !== 'ACTIVE' || this.deps.clock.for(payment.merchantId).now() < payment.expiresAt) return payment;
    const result = this.apply(payment.id, { type: 'clock.expired' });
    return result.ok ? result.payment : payment;
  }

  private carryOut(payment: Payment, effects: PaymentEffect[]): void {
    for (const effect of effects) {
      switch (effect.kind) {
        case 'schedule-expiry':
          this.expiryTimers.get(payment.id)?.cancel();
          this.expiryTimers.set(payment.id, this.deps.clock.for(payment.merchantId).schedule(effect.at, this.expiryDue, payment.id));
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
