// The payment invariants judged over the whole run (cross-cutting, at the end): every payment any check read, through
// any path, is replayed view by view (history/payment-histories.ts) through the same tracker the lifecycle checks use,
// so a rule holds on the payments of the externalId, customer and fee checks too, not only on the lifecycle checks' own.
// Judged: fields fixed at creation never change and set-once fields never change once set (acceptedChains stays as
// requested), createdAt ≤ paidAt ≤ updatedAt, updatedAt moves forward on every change, status moves forward only, token
// amounts add up, and on every view the fee oracle of fees.split-properties: the parts add up, the fee split per
// recipient is exact where no rounding is involved, zero-decimal currencies are written without decimals. Terminal
// payments that change at all only warn (PAY-STATE-TERMINAL-FINAL is assumed), and so do the fee rules the spec leaves
// open (rounding).
import type { CheckContext } from '../../context.ts';
import { type PaymentHistory, type PaymentView, sequentialViews } from '../../history/payment-histories.ts';
import { FIELD_LIFETIMES, INVARIANT_REQUIREMENTS, type PaymentField, fieldRequirement } from '../../model/field-lifetimes.ts';
import { PaymentTracker, sameValue } from '../../model/invariants.ts';
import type { ViewViolation } from '../../model/view-rules.ts';
import type { Payment } from '../../support/payments.ts';
import { defineCheck } from '../../registry.ts';
import { currency } from '../../facts/fixtures.ts';
import { checkFees, FEE_REQUIREMENT, zeroDecimalViolations } from '../../support/fee-oracle.ts';

/** The fee oracle on one view: with the create request every fee rule, without it the zero-decimal writing only. */
function feeViolations(history: PaymentHistory, view: PaymentView): ViewViolation[] {
  let minorUnits: number;
  try {
    minorUnits = currency(String(view.payment.currency)).minorUnits;
  } catch {
    return []; // an unknown currency: the create and format checks judge it
  }
  const found = history.request
    ? checkFees(history.request, view.payment, minorUnits)
    : zeroDecimalViolations(undefined, view.payment, minorUnits);
  return found.map((v) => ({ requirement: FEE_REQUIREMENT[v.property], message: v.message }));
}

/**
 * Below this, a change may have come in the same millisecond as the previous update, so updatedAt may legally stay
 * (timestamps have millisecond precision): a create answered and cancelled within a millisecond keeps updatedAt ==
 * createdAt. The bound is measured on the suite's clock between two of its own requests, with room for timer jitter.
 */
const SAME_MILLISECOND_MARGIN_MS = 50;

/**
 * A field other than updatedAt changed between two sequential views while updatedAt did not move forward, and the state
 * before the change had stood for `stoodMs` at least (so the change cannot share its last update's millisecond).
 */
function updatedAtMoved(before: Payment, now: Payment, stoodMs: number): ViewViolation[] {
  const b = before as unknown as Record<string, unknown>;
  const n = now as unknown as Record<string, unknown>;
  if (typeof n.updatedAt !== 'string') return [];
  const last = typeof b.updatedAt === 'string' ? b.updatedAt : b.createdAt;
  if (typeof last !== 'string') return [];
  const changed = changedFields(before, now);
  if (changed.length === 0 || Date.parse(n.updatedAt) > Date.parse(last)) return [];
  if (Date.parse(n.updatedAt) === Date.parse(last) && stoodMs <= SAME_MILLISECOND_MARGIN_MS) return [];
  return [
    {
      requirement: fieldRequirement('updatedAt'),
      message: `updatedAt ${n.updatedAt} did not move forward from ${last} although ${changed.join(', ')} changed (the earlier state had stood at least ${Math.round(stoodMs)} ms)`,
    },
  ];
}

/** The fields other than updatedAt that differ between two views of one payment. */
function changedFields(before: Payment, now: Payment): PaymentField[] {
  const b = before as unknown as Record<string, unknown>;
  const n = now as unknown as Record<string, unknown>;
  return (Object.keys(FIELD_LIFETIMES) as PaymentField[]).filter((f) => f !== 'updatedAt' && f in b && f in n && !sameValue(f, b[f], n[f]));
}

/** The fee rules feeViolations judged on a history. */
function feeRulesJudged(history: PaymentHistory): string[] {
  let minorUnits: number;
  try {
    minorUnits = currency(String(history.views[0]!.payment.currency)).minorUnits;
  } catch {
    return [];
  }
  const sellers = (history.request?.sellers?.length ?? 0) > 0;
  return [
    ...(minorUnits === 0 ? [FEE_REQUIREMENT['zero-decimal']] : []),
    ...(history.request ? ['PAY-FEE-SUM-IDENTITY', 'PAY-FEE-SERVICE-RATE', 'PAY-FEE-ROUND-HALF-UP'] : []),
    ...(history.request && sellers ? ['PAY-FEE-SELLERS-PROPORTIONAL', 'PAY-FEE-SHARE-FLOOR-OR-CEIL'] : []),
  ];
}

export const paymentInvariants = defineCheck({
  id: 'history.payment-invariants',
  title: 'Over the whole run, every payment seen keeps its creation fields, orders its timestamps and moves forward only',
  requirements: [...new Set([...INVARIANT_REQUIREMENTS, ...Object.values(FEE_REQUIREMENT)])],
  level: 'documented',
  needs: [],
  tags: ['lifecycle', 'cross-cutting', 'run-history'],
  async run(ctx: CheckContext) {
    const histories = (ctx.services.paymentHistories?.all() ?? []).filter((h) => h.views.length > 0);
    if (histories.length === 0) ctx.notExercised('the run read no payment (run it with other checks)');
    const found = new Map<string, { title: string; messages: string[] }>();
    const record = (history: PaymentHistory, view: PaymentView, violations: ViewViolation[]) => {
      for (const violation of violations) {
        const entry = found.get(violation.requirement) ?? { title: `A payment broke ${violation.requirement}`, messages: [] };
        entry.messages.push(`payment ${history.id} (read by ${view.checkId}, ${view.via}): ${violation.message}`);
        found.set(violation.requirement, entry);
      }
    };
    let judged = 0;
    for (const history of histories) {
      const tracker = new PaymentTracker();
      if (history.request) tracker.created(history.id, history.request);
      let previous: PaymentView | undefined;
      // When the state the previous view shows was first seen (the end of that read, on the suite's clock).
      let stoodSince = Number.NaN;
      for (const view of sequentialViews(history)) {
        judged += 1;
        // No read time on the implementation's clock (a moved clock is only estimated): updatedAt is judged against
        // the previous view instead, it must be later whenever another field changed, unless the change may have
        // come in the same millisecond as the previous update. The change came after the previous view was served
        // (so after its request began) and, when this view is the cancel that made it, after this request began.
        const violations = tracker.observe(view.payment, Number.NEGATIVE_INFINITY);
        if (!previous) stoodSince = view.endedAt;
        else if (changedFields(previous.payment, view.payment).length > 0) {
          const changedAfter = Math.max(previous.startedAt, view.via === 'cancel' ? view.startedAt : Number.NEGATIVE_INFINITY);
          violations.push(...updatedAtMoved(previous.payment, view.payment, changedAfter - stoodSince));
          stoodSince = view.endedAt;
        }
        previous = view;
        record(history, view, violations);
      }
      ctx.judged(...tracker.judged);
      // The fee rules hold on each view alone: every view is judged, concurrent reads included.
      for (const view of history.views) record(history, view, feeViolations(history, view));
      ctx.judged(...feeRulesJudged(history));
    }
    ctx.addCases(judged);
    for (const [requirement, { title, messages }] of found) {
      ctx.fail(requirement, title, `${messages.length} violation(s) over the run; first: ${messages.slice(0, 3).join('\n')}`);
    }
  },
});
