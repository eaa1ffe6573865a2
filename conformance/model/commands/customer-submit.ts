// The customer picks an allowed chain+token and submits (control API): ACTIVE -> PROCESSING.
// From any other state the transition must be refused and the payment left unchanged.
import type fc from 'fast-check';
import { type LifecycleModel, type LifecycleReal, judge, verify, violation } from '../model.ts';

export class CustomerSubmitCommand implements fc.AsyncCommand<LifecycleModel, LifecycleReal> {
  constructor(
    readonly index: number,
    readonly pairIndex: number,
  ) {}

  check(model: Readonly<LifecycleModel>): boolean {
    return model.payments.length > 0;
  }

  async run(model: LifecycleModel, real: LifecycleReal): Promise<void> {
    const p = model.pick(this.index)!;
    const pair = p.pairs[this.pairIndex % p.pairs.length]!;
    const response = await real.control.submitRaw(p.id, pair.chainId, pair.token);
    if (model.nearExpiry(p)) {
      p.status = response.status === 200 ? 'PROCESSING' : 'EXPIRED';
      if (response.status === 200) p.pair = pair;
    } else if (p.status === 'ACTIVE') {
      if (response.status !== 200)
        violation(
          'PAY-STATE-ACTIVE-TO-PROCESSING',
          'Customer submit on an ACTIVE payment refused',
          `control submit answered ${response.status}: ${response.text.slice(0, 200)}`,
          response.exchange,
        );
      p.status = 'PROCESSING';
      p.pair = pair;
      judge(real, 'PAY-STATE-ACTIVE-TO-PROCESSING');
    } else if (response.status === 200) {
      violation(
        p.status === 'EXPIRED' ? 'PAY-STATE-SUBMIT-AFTER-EXPIRY-REFUSED' : 'PAY-STATE-FORWARD-ONLY',
        `Submit accepted on a ${p.status} payment`,
        `control submit answered 200 for a ${p.status} payment`,
        response.exchange,
      );
    } else if (p.status === 'EXPIRED') judge(real, 'PAY-STATE-SUBMIT-AFTER-EXPIRY-REFUSED');
    await verify(model, real, p, String(this));
  }

  toString(): string {
    return `submit(#${this.index}, pair ${this.pairIndex})`;
  }
}
