// The lifecycle model: what the suite believes each payment's state is. Commands update it and
// compare the implementation against it after every step (fast-check model-based testing).
import type { CheckContext } from '../context.ts';
import { RequirementError } from '../errors.ts';
import type { HttpClient } from '../http/client.ts';
import type { ControlClient } from '../control/control-client.ts';
import type { Exchange } from '../http/recorder.ts';
import { getPayment, TERMINAL, type Payment, type PaymentStatus } from '../support/payments.ts';
import { PaymentTracker } from './invariants.ts';
import { viewJudged, viewViolations } from './view-rules.ts';

/** Within this distance of expiresAt the model accepts ACTIVE or EXPIRED and adopts what it sees. */
export const EXPIRY_SLACK_MS = 5_000;

export interface ModelPayment {
  id: string;
  status: PaymentStatus;
  expiresAt: number;
  createdAt: number;
  pairs: { chainId: number; token: string }[];
  pair?: { chainId: number; token: string };
}

export class LifecycleModel {
  readonly payments: ModelPayment[] = [];
  /** The implementation's clock as of the last step (ms). */
  now = 0;
  /** Every observation of every payment, judged against the previous one (field lifetimes). */
  readonly tracker = new PaymentTracker();

  pick(index: number): ModelPayment | undefined {
    return this.payments.length ? this.payments[index % this.payments.length] : undefined;
  }

  /** ACTIVE payments past expiresAt become EXPIRED; PROCESSING does not expire (assumed). */
  applyExpiry(): void {
    for (const p of this.payments) if (p.status === 'ACTIVE' && p.expiresAt + EXPIRY_SLACK_MS <= this.now) p.status = 'EXPIRED';
  }

  nearExpiry(p: ModelPayment): boolean {
    return p.status === 'ACTIVE' && Math.abs(p.expiresAt - this.now) < EXPIRY_SLACK_MS;
  }

  toString(): string {
    return this.payments.map((p) => `${p.id.slice(0, 8)}:${p.status}`).join(' ');
  }
}

export interface LifecycleReal {
  ctx: CheckContext;
  api: HttpClient;
  control: ControlClient;
}

/** Marks requirements a step judged (those the running check cites). */
export function judge(real: LifecycleReal, ...requirements: string[]): void {
  real.ctx.judged(...requirements.filter((id) => real.ctx.check.requirements.includes(id)));
}

export function violation(requirement: string, title: string, message: string, exchange?: Exchange): never {
  throw new RequirementError(requirement, title, message, exchange);
}

/** Requirement an unexpected status observation breaks, given what the model expected. */
export function requirementFor(expected: PaymentStatus, observed: string): string {
  if (TERMINAL.includes(expected)) return 'PAY-STATE-TERMINAL-FINAL';
  if (expected === 'PROCESSING' && observed === 'EXPIRED') return 'PAY-STATE-PROCESSING-NO-EXPIRY';
  if (expected === 'ACTIVE' && observed === 'EXPIRED') return 'PAY-STATE-ACTIVE-TO-EXPIRED';
  if (expected === 'ACTIVE' && observed === 'FAILED') return 'PAY-STATE-ACTIVE-NO-DIRECT-FAIL';
  return 'PAY-STATE-FORWARD-ONLY';
}

/** GETs the payment and compares status and state-dependent fields with the model. */
export async function verify(model: LifecycleModel, real: LifecycleReal, p: ModelPayment, step: string): Promise<Payment> {
  const got = await getPayment(real.api, p.id);
  if (got.status !== 200)
    violation('PAY-GET-RESPONSE-200', `GET failed after ${step}`, `GET /v1/payments/${p.id} answered ${got.status}`, got.exchange);
  const observed = got.payment.status;
  if (observed !== p.status) {
    if (model.nearExpiry(p) && observed === 'EXPIRED') p.status = 'EXPIRED';
    else
      violation(
        requirementFor(p.status, observed),
        `Status differs from the model after ${step}`,
        `expected ${p.status}, GET shows ${observed} (model now ${new Date(model.now).toISOString()}, expiresAt ${new Date(p.expiresAt).toISOString()})`,
        got.exchange,
      );
  }
  const [first] = viewViolations(got.payment, p.pair);
  if (first) violation(first.requirement, `Retrieve view of a ${observed} payment is wrong`, first.message, got.exchange);
  observeInvariants(model, real, got.payment, got.exchange, step);
  judge(real, 'PAY-GET-RESPONSE-200', 'PAY-STATE-FORWARD-ONLY', ...viewJudged(got.payment, p.pair), ...model.tracker.judged);
  if (TERMINAL.includes(p.status)) judge(real, 'PAY-STATE-TERMINAL-FINAL');
  if (p.status === 'EXPIRED') judge(real, 'PAY-STATE-ACTIVE-TO-EXPIRED');
  if (p.status === 'PROCESSING' && model.now > p.expiresAt) judge(real, 'PAY-STATE-PROCESSING-NO-EXPIRY');
  return got.payment;
}

/** Feeds one observation of a payment (any view) to the tracker; the first broken invariant stops the run. */
export function observeInvariants(model: LifecycleModel, real: LifecycleReal, payment: Payment, exchange: Exchange, step: string): void {
  const [first] = model.tracker.observe(payment, real.ctx.clock.at(Date.parse(exchange.startedAt)));
  if (first) violation(first.requirement, `A field invariant broke after ${step}`, first.message, exchange);
}
