import type fc from 'fast-check';
import { type LifecycleModel, type LifecycleReal, verify } from '../model.ts';

export class GetPaymentCommand implements fc.AsyncCommand<LifecycleModel, LifecycleReal> {
  constructor(readonly index: number) {}

  check(model: Readonly<LifecycleModel>): boolean {
    return model.payments.length > 0;
  }

  async run(model: LifecycleModel, real: LifecycleReal): Promise<void> {
    await verify(model, real, model.pick(this.index)!, String(this));
  }

  toString(): string {
    return `get(#${this.index})`;
  }
}
