// The transaction reverts or the bundler rejects it (control API): PROCESSING -> FAILED with an
// error object. ACTIVE cannot fail directly (assumed); terminal states never change.
import type fc from 'fast-check';
import { type LifecycleModel, type LifecycleReal, judge, verify, violation } from '../model.ts';

export const FAILURES = [
  { code: 'TRANSACTION_REVERTED', source: 'chain', message: 'execution reverted' },
  { code: 'USER_OPERATION_REJECTED', source: 'bundler', message: 'bundler rejected the user operation' },
];

export class ChainFailCommand implements fc.AsyncCommand<LifecycleModel, LifecycleReal> {
  constructor(
    readonly index: number,
    readonly failure: number,
  ) {}

  check(model: Readonly<LifecycleModel>): boolean {
    return model.payments.length > 0;
  }

  async run(model: LifecycleModel, real: LifecycleReal): Promise<void> {
    const p = model.pick(this.index)!;
    const response = await real.control.failRaw(p.id, FAILURES[this.failure % FAILURES.length]);
    if (p.status === 'PROCESSING') {
      if (response.status !== 200)
        violation(
          'PAY-STATE-PROCESSING-TO-FAILED',
          'Fail of a PROCESSING payment refused',
          `control fail answered ${response.status}: ${response.text.slice(0, 200)}`,
          response.exchange,
        );
      p.status = 'FAILED';
      judge(real, 'PAY-STATE-PROCESSING-TO-FAILED');
    } else if (response.status === 200 && !model.nearExpiry(p)) {
      violation(
        p.status === 'ACTIVE' ? 'PAY-STATE-ACTIVE-NO-DIRECT-FAIL' : 'PAY-STATE-TERMINAL-FINAL',
        `Fail accepted on a ${p.status} payment`,
        'control fail answered 200',
        response.exchange,
      );
    } else if (p.status === 'ACTIVE' && !model.nearExpiry(p)) judge(real, 'PAY-STATE-ACTIVE-NO-DIRECT-FAIL');
    await verify(model, real, p, String(this));
  }

  toString(): string {
    return `fail(#${this.index}, ${FAILURES[this.failure % FAILURES.length]!.source})`;
  }
}
