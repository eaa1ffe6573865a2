// The lifecycle checks' door to the field invariants (model/invariants.ts): every response that
// shows a payment goes through here, so each check judges every observation the same way.
import type { CheckContext } from '../../context.ts';
import type { HttpResponse } from '../../http/client.ts';
import type { PaymentTracker } from '../../model/invariants.ts';
import type { Payment } from '../../support/payments.ts';

/** Judges one observation of a payment against every field invariant of its lifetime. */
export function observe(ctx: CheckContext, tracker: PaymentTracker, response: HttpResponse & { payment: Payment }): void {
  if (response.status < 200 || response.status > 299) return;
  for (const v of tracker.observe(response.payment, ctx.clock.at(Date.parse(response.exchange.startedAt)))) {
    ctx.fail(
      v.requirement,
      `A field invariant broke (${response.exchange.method} ${new URL(response.exchange.url).pathname})`,
      v.message,
      response.exchange,
    );
  }
  markJudged(ctx, tracker.judged);
}

/** Marks the requirements an oracle judged, those this check cites (the others are another check's concern). */
export function markJudged(ctx: CheckContext, judged: Iterable<string>): void {
  ctx.judged(...[...judged].filter((id) => ctx.check.requirements.includes(id)));
}
