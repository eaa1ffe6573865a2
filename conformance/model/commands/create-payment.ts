import type fc from 'fast-check';
import { allowedPairs } from '../../facts/fixtures.ts';
import { createPayment } from '../../support/payments.ts';
import { acceptedAmount } from '../../support/amounts.ts';
import { type LifecycleModel, type LifecycleReal, judge, observeInvariants, verify, violation } from '../model.ts';

export const MAX_PAYMENTS = 6;

export class CreatePaymentCommand implements fc.AsyncCommand<LifecycleModel, LifecycleReal> {
  constructor(
    readonly currency: string,
    readonly amount: string,
    /** Minutes until expiry beyond the 15-minute minimum (null = default 1 hour). */
    readonly expiresInMinutes: number | null,
    readonly chains: number[],
  ) {}

  check(model: Readonly<LifecycleModel>): boolean {
    return model.payments.length < MAX_PAYMENTS;
  }

  async run(model: LifecycleModel, real: LifecycleReal): Promise<void> {
    model.now = real.ctx.clock.now();
    const body = {
      // At or above the minimum the run established for the currency (not shown by the spec).
      amount: await acceptedAmount(real.ctx, this.currency, this.amount),
      currency: this.currency,
      acceptedChains: this.chains,
      ...(this.expiresInMinutes !== null ? { expiresAt: new Date(model.now + this.expiresInMinutes * 60_000).toISOString() } : {}),
    };
    const created = await createPayment(real.api, body);
    if (created.status !== 201)
      violation(
        'PAY-STATE-CREATE-TO-ACTIVE',
        'Create refused in the model run',
        `expected 201, got ${created.status}: ${created.text.slice(0, 200)}`,
        created.exchange,
      );
    if (created.payment.status !== 'ACTIVE')
      violation('PAY-STATE-CREATE-TO-ACTIVE', 'New payment is not ACTIVE', `status ${created.payment.status}`, created.exchange);
    judge(real, 'PAY-STATE-CREATE-TO-ACTIVE');
    const p = {
      id: created.payment.id,
      status: 'ACTIVE' as const,
      expiresAt: Date.parse(created.payment.expiresAt),
      createdAt: Date.parse(created.payment.createdAt),
      pairs: allowedPairs(this.chains, ['USDC', 'USDT']),
    };
    model.payments.push(p);
    model.tracker.created(p.id, body);
    observeInvariants(model, real, created.payment, created.exchange, String(this));
    await verify(model, real, p, String(this));
  }

  toString(): string {
    return `create(${this.amount} ${this.currency}, chains ${this.chains.join('/')}, expires ${this.expiresInMinutes === null ? 'default' : `+${this.expiresInMinutes}m`})`;
  }
}
