// Amounts a check may pick freely, kept at or above the per-currency minimum the run established (spec §8:
// "Per-currency minimum amounts: not shown"; premise payments.minimum-amounts). A check that creates payments
// with amounts of its own choosing passes them through here and declares the premise, so a legal implementation
// with higher minimums refuses none of its setup payments.
import type { CheckContext } from '../context.ts';
import { toScale } from '../facts/decimal.ts';

const larger = (a: string, b: string): boolean => toScale(a, 6) > toScale(b, 6);

/** `wanted`, or the established minimum of `currency` when that is larger (the minimum is a valid amount). */
export async function acceptedAmount(ctx: CheckContext, currency: string, wanted: string): Promise<string> {
  const minimum = (await ctx.premise('payments.minimum-amounts'))[currency];
  return minimum && larger(minimum, wanted) ? minimum : wanted;
}

/** The factor by which `wanted` amounts must grow so the smallest of them reaches the minimum (1 when none must). */
export async function amountScale(ctx: CheckContext, currency: string, smallest: string): Promise<number> {
  const minimum = (await ctx.premise('payments.minimum-amounts'))[currency];
  if (!minimum || !larger(minimum, smallest)) return 1;
  return Math.ceil(Number(minimum) / Number(smallest));
}
