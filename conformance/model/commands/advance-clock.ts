// Moves the implementation's clock; ACTIVE payments whose expiresAt passed must be EXPIRED,
// PROCESSING ones stay PROCESSING (assumed) and terminal ones never change. Checks every payment.
import type fc from 'fast-check';
import { type LifecycleModel, type LifecycleReal, verify } from '../model.ts';

export class AdvanceClockCommand implements fc.AsyncCommand<LifecycleModel, LifecycleReal> {
  constructor(
    readonly minutes: number,
    readonly seconds: number,
  ) {}

  check(model: Readonly<LifecycleModel>): boolean {
    return model.payments.length > 0;
  }

  async run(model: LifecycleModel, real: LifecycleReal): Promise<void> {
    const { now } = await real.control.advance(this.minutes * 60_000 + this.seconds * 1000);
    model.now = Date.parse(now);
    await real.ctx.clock.refresh();
    model.applyExpiry();
    for (const p of model.payments) await verify(model, real, p, String(this));
  }

  toString(): string {
    return `advance(${this.minutes}m${this.seconds}s)`;
  }
}
