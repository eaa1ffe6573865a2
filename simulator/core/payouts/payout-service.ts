// Carries out the payout table's decisions: storage, payout.* webhook events, expiry timers on the merchant's clock.
import type { TokenSymbol } from '@stablepay/contract/chain-table';
import type { ExchangeRates } from '../reference-data/exchange-rates.ts';
import type { TimerHandle, VirtualClock } from '../clock/virtual-clock.ts';
import type { Logger } from '../support/logger.ts';
import type { Persist } from '../support/persist.ts';
import { NotFound, refusedTransition } from '../refusals/refusals.ts';
import type { PaymentError } from '../payments/types.ts';
import type { RandomSource } from '../support/random.ts';
import type { WebhookService } from '../webhooks/index.ts';
import type { PayoutEffect, PayoutEvent } from './payout-state-machine.ts';
import { openPayout, payoutTransition } from './payout-state-machine.ts';
import type { Payout } from './types.ts';
import { validatePayoutInput } from './validate-payout.ts';

export interface PayoutServiceDeps {
  clock: VirtualClock;
  random: RandomSource;
  rates: ExchangeRates;
  webhooks: Pick<WebhookService, 'emit'>;
  logger: Logger;
  defaultTtlMs?: number;
}

export class PayoutService {
  private readonly payouts = new Map<string, Payout>();
  private readonly timers = new Map<string, TimerHandle>();
  /** Told about every stored version (durable mode). */
  persist: Persist | undefined;

  constructor(private readonly deps: PayoutServiceDeps) {}

  create(merchantId: string, body: unknown): Payout {
    const now = this.deps.clock.for(merchantId).now();
    const draft = validatePayoutInput(body, now);
    const { payout, effects } = openPayout(
      { id: this.deps.random.uuid(), merchantId, draft, defaultTtlMs: this.deps.defaultTtlMs ?? 3_600_000 },
      now,
    );
    this.payouts.set(payout.id, payout);
    this.persist?.put('payout', payout.id, payout);
    this.carryOut(payout, effects);
    return payout;
  }

  get(merchantId: string, id: string): Payout {
    const payout = this.payouts.get(id);
    if (!payout || payout.merchantId !== merchantId) throw new NotFound('Payout');
    return payout;
  }

  find(id: string): Payout | undefined {
    return this.payouts.get(id);
  }

  /** Apply an event or throw its refusal (InvalidState for the wrong state, Invalid for bad input). */
  apply(id: string, event: PayoutEvent): Payout {
    const current = this.payouts.get(id);
    if (!current) throw new NotFound('Payout');
    const result = payoutTransition(current, event, this.deps.clock.for(current.merchantId).now());
    if (!result.ok) {
      if (result.refusal.reason === 'expired') this.apply(id, { type: 'clock.expired' });
      throw refusedTransition(result.refusal);
    }
    this.payouts.set(id, result.payout);
    this.persist?.put('payout', id, result.payout);
    this.carryOut(result.payout, result.effects);
    return result.payout;
  }

  submit(id: string, choice: { chainId: number; token: TokenSymbol }): Payout {
    const payout = this.payouts.get(id);
    if (!payout) throw new NotFound('Payout');
    return this.apply(id, { type: 'payer.submitted', ...choice, exchangeRate: this.deps.rates.rateString(payout.currency) });
  }

  confirm(id: string): Payout {
    return this.apply(id, { type: 'chain.confirmed', txHash: this.deps.random.hex(32) });
  }

  fail(id: string, error: PaymentError): Payout {
    return this.apply(id, { type: 'chain.failed', error });
  }

  cancel(id: string): Payout {
    return this.apply(id, { type: 'merchant.cancelled' });
  }

  /** Puts back payouts read from the state directory; ACTIVE ones get their expiry again. */
  restore(payouts: Iterable<Payout>): void {
    for (const payout of payouts) {
      this.payouts.set(payout.id, payout);
      if (payout.status === 'ACTIVE') this.carryOut(payout, [{ kind: 'schedule-expiry', at: payout.expiresAt }]);
    }
  }

  /** Durable mode: a payout as the database has it (undefined: gone), not reported again; its expiry follows. */
  applyRecord(id: string, payout: Payout | undefined): void {
    this.timers.get(id)?.cancel();
    this.timers.delete(id);
    if (!payout) {
      this.payouts.delete(id);
      return;
    }
    this.payouts.set(id, payout);
    if (payout.status === 'ACTIVE') this.carryOut(payout, [{ kind: 'schedule-expiry', at: payout.expiresAt }]);
  }

  /** A merchant's world starts again (a merchant reset): its payouts and their timers are gone. */
  forget(merchantId: string): number {
    let removed = 0;
    for (const [id, payout] of this.payouts) {
      if (payout.merchantId !== merchantId) continue;
      this.timers.get(id)?.cancel();
      this.timers.delete(id);
      this.payouts.delete(id);
      this.persist?.delete('payout', id);
      removed += 1;
    }
    return removed;
  }

  close(): void {
    for (const timer of this.timers.values()) timer.cancel();
    this.timers.clear();
  }

  private carryOut(payout: Payout, effects: PayoutEffect[]): void {
    for (const effect of effects) {
      if (effect.kind === 'schedule-expiry') {
        this.timers.set(
          payout.id,
          this.deps.clock.for(payout.merchantId).schedule(effect.at, () => {
            this.timers.delete(payout.id);
            if (this.payouts.get(payout.id)?.status === 'ACTIVE') this.apply(payout.id, { type: 'clock.expired' });
          }),
        );
      } else if (effect.kind === 'cancel-expiry') {
        this.timers.get(payout.id)?.cancel();
        this.timers.delete(payout.id);
      } else {
        try {
          this.deps.webhooks.emit(payout.merchantId, { type: effect.event, payoutId: payout.id, externalId: payout.externalId });
        } catch (error) {
          this.deps.logger.error(`webhook emit failed for ${effect.event} of payout ${payout.id}`, error);
        }
      }
    }
  }
}
