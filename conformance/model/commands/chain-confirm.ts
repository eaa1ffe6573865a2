// The chain confirms the transaction (control API): PROCESSING -> SUCCESSFUL, otherwise refused.
import type fc from 'fast-check';
import { type LifecycleModel, type LifecycleReal, judge, verify, violation } from '../model.ts';

export class ChainConfirmCommand implements fc.AsyncCommand<LifecycleModel, LifecycleReal> {
  constructor(readonly index: number) {}

  check(model: Readonly<LifecycleModel>): boolean {
    return model.payments.length > 0;
  }

  async run(model: LifecycleModel, real: LifecycleReal): Promise<void> {
    const p = model.pick(this.index)!;
    const response = await real.control.confirmRaw(p.id);
    if (p.status === 'PROCESSING') {
      if (response.status !== 200)
        violation(
          'PAY-STATE-PROCESSING-TO-SUCCESSFUL',
          'Confirm of a PROCESSING payment refused',
          `control confirm answered ${response.status}: ${response.text.slice(0, 200)}`,
          response.exchange,
        );
      p.status = 'SUCCESSFUL';
      judge(real, 'PAY-STATE-PROCESSING-TO-SUCCESSFUL');
    } else if (response.status === 200 && !model.nearExpiry(p)) {
      violation(
        p.status === 'ACTIVE' ? 'PAY-STATE-FORWARD-ONLY' : 'PAY-STATE-TERMINAL-FINAL',
        `Confirm accepted on a ${p.status} payment`,
        'control confirm answered 200',
        response.exchange,
      );
    }
    await verify(model, real, p, String(this));
  }

  toString(): string {
    return `confirm(#${this.index})`;
  }
}
