// DELETE: ACTIVE -> CANCELLED (200 with the updated payment); anything else is 400 and unchanged.
import type fc from 'fast-check';
import { cancelPayment } from '../../support/payments.ts';
import { type LifecycleModel, type LifecycleReal, judge, observeInvariants, verify, violation } from '../model.ts';

export class CancelPaymentCommand implements fc.AsyncCommand<LifecycleModel, LifecycleReal> {
  constructor(readonly index: number) {}

  check(model: Readonly<LifecycleModel>): boolean {
    return model.payments.length > 0;
  }

  async run(model: LifecycleModel, real: LifecycleReal): Promise<void> {
    const p = model.pick(this.index)!;
    const response = await cancelPayment(real.api, p.id);
    const uncertain = model.nearExpiry(p);
    if (p.status === 'ACTIVE' && !(uncertain && response.status === 400)) {
      if (response.status !== 200)
        violation(
          'PAY-STATE-ACTIVE-TO-CANCELLED',
          'Cancel of an ACTIVE payment refused',
          `expected 200, got ${response.status}: ${response.text.slice(0, 200)}`,
          response.exchange,
        );
      if (response.payment.status !== 'CANCELLED')
        violation(
          'PAY-CANCEL-RESPONSE',
          'Cancel does not return the CANCELLED payment',
          `status in response: ${response.payment.status}`,
          response.exchange,
        );
      p.status = 'CANCELLED';
      judge(real, 'PAY-STATE-ACTIVE-TO-CANCELLED', 'PAY-CANCEL-RESPONSE');
      observeInvariants(model, real, response.payment, response.exchange, String(this));
    } else if (uncertain) {
      p.status = 'EXPIRED';
    } else if (response.status !== 400) {
      violation(
        'PAY-CANCEL-ONLY-ACTIVE',
        `Cancel of a ${p.status} payment is not 400`,
        `expected 400, got ${response.status}: ${response.text.slice(0, 200)}`,
        response.exchange,
      );
    } else judge(real, 'PAY-CANCEL-ONLY-ACTIVE');
    await verify(model, real, p, String(this));
  }

  toString(): string {
    return `cancel(#${this.index})`;
  }
}
