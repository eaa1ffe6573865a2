// The fee properties of spec §2 ("Fee rules") in exact arithmetic, as the suite checks them:
// the split identity, the 0.5 % fee as the floor or ceiling of the exact value (only the exact value
// when it is representable), proportional deduction from every recipient, zero-decimal currencies
// written without decimals, and (assumed) half-up rounding. Returns every broken property.
//
// The share of the fee each recipient bears is documented only as "deducted proportionally" (spec §2):
// where every recipient's part is exact in minor units no rounding is involved, so only that split
// is proportional (a documented failure otherwise); where a part must be rounded the spec does not say
// how, so a part off its floor or ceiling only warns, unless it is off by as many units as there are
// recipients or more, which no rounding of the parts explains (a documented failure again).
import { absBig, decimalsOf, divRoundHalfUp, isDecimalString, toUnits } from '../facts/decimal.ts';
import type { CreateBody, Payment } from './payments.ts';

export type FeeProperty =
  | 'format'
  | 'zero-decimal'
  | 'identity'
  | 'service-fee'
  | 'proportional'
  | 'share-rounding'
  | 'half-up'
  | 'minor-format';

/** The catalogue requirement each property judges. */
export const FEE_REQUIREMENT: Record<FeeProperty, string> = {
  format: 'FMT-AMOUNT-DECIMAL-STRING',
  'zero-decimal': 'FMT-ZERO-DECIMAL-AMOUNTS',
  identity: 'PAY-FEE-SUM-IDENTITY',
  'service-fee': 'PAY-FEE-SERVICE-RATE',
  proportional: 'PAY-FEE-SELLERS-PROPORTIONAL',
  'share-rounding': 'PAY-FEE-SHARE-FLOOR-OR-CEIL',
  'half-up': 'PAY-FEE-ROUND-HALF-UP',
  'minor-format': 'PAY-FEE-MINOR-UNIT-FORMAT',
};

/** Properties whose rule is our choice where the spec is silent: they warn. */
export const ASSUMED_FEE_PROPERTIES: readonly FeeProperty[] = ['half-up', 'minor-format', 'share-rounding'];

export interface FeeViolation {
  property: FeeProperty;
  message: string;
}

function units(value: unknown, minorUnits: number, field: string): bigint {
  if (!isDecimalString(value)) throw new Error(`${field} is not a decimal string: ${JSON.stringify(value)}`);
  return toUnits(value, minorUnits);
}

/**
 * Fiat amounts of a zero-decimal currency (JPY, IDR, VND: spec §1) written with decimals ("80.00", "80.5"). The
 * amount the merchant sent is exempt when echoed as sent: whether "100.00" may be sent is our assumption, not the
 * spec's, and an echo of it is the merchant's writing.
 */
export function zeroDecimalViolations(request: CreateBody | undefined, payment: Payment, minorUnits: number): FeeViolation[] {
  if (minorUnits !== 0) return [];
  const written = [
    ...(request && payment.amount === request.amount ? [] : [['amount', payment.amount] as const]),
    ['serviceFee', payment.serviceFee] as const,
    ['merchantFee', payment.merchantFee] as const,
    ...(payment.sellers ?? []).map((s, i) => [`sellers[${i}].amount`, s?.amount] as const),
  ].filter(([, value]) => isDecimalString(value) && decimalsOf(value) > 0);
  if (written.length === 0) return [];
  return [
    {
      property: 'zero-decimal',
      message: `${payment.currency} is a zero-decimal currency, yet ${written.map(([f, v]) => `${f} is "${v}"`).join(', ')}`,
    },
  ];
}

export function checkFees(request: CreateBody, payment: Payment, minorUnits: number): FeeViolation[] {
  const violations: FeeViolation[] = zeroDecimalViolations(request, payment, minorUnits);
  let amount: bigint, serviceFee: bigint, merchantFee: bigint, sellerNets: bigint[];
  try {
    amount = units(payment.amount, minorUnits, 'amount');
    serviceFee = units(payment.serviceFee, minorUnits, 'serviceFee');
    merchantFee = units(payment.merchantFee, minorUnits, 'merchantFee');
    sellerNets = (payment.sellers ?? []).map((s, i) => units(s.amount, minorUnits, `sellers[${i}].amount`));
  } catch (error) {
    return [...violations, { property: 'format', message: `${(error as Error).message} with at most ${minorUnits} decimals` }];
  }
  const fees = [
    ['serviceFee', payment.serviceFee],
    ['merchantFee', payment.merchantFee],
    ...(payment.sellers ?? []).map((s, i) => [`sellers[${i}].amount`, s.amount]),
  ] as const;
  const misformatted = fees.filter(([, value]) => decimalsOf(String(value)) !== minorUnits);
  if (misformatted.length && minorUnits > 0) {
    violations.push({
      property: 'minor-format',
      message: `not written with exactly ${minorUnits} decimals: ${misformatted.map(([f, v]) => `${f} "${v}"`).join(', ')}`,
    });
  }
  let requested: bigint;
  try {
    requested = toUnits(request.amount, minorUnits);
  } catch {
    return violations; // a request the implementation should have refused: its create checks judge that
  }
  if (amount !== requested)
    violations.push({ property: 'identity', message: `amount ${payment.amount} is not the requested ${request.amount}` });

  const total = merchantFee + sellerNets.reduce((a, b) => a + b, 0n) + serviceFee;
  if (total !== amount) {
    violations.push({
      property: 'identity',
      message: `merchantFee ${payment.merchantFee} + Σ sellers [${(payment.sellers ?? []).map((s) => s.amount).join(', ')}] + serviceFee ${payment.serviceFee} = ${total} minor units, amount is ${amount}`,
    });
  }
  // "0.005 × amount to within one minor unit" read as an exact oracle: the fee is a rounding of the
  // exact value to the minor unit, so |serviceFee − 0.005·amount| < 1 minor unit: the floor or the
  // ceiling of the exact value, and when 0.5 % is exact in minor units only that value (there is
  // nothing to round). Scaled by 1000 to stay in integers. Which of floor/ceiling stays assumed (half-up).
  if (absBig(serviceFee * 1000n - amount * 5n) >= 1000n) {
    const exact = (amount * 5n) % 1000n === 0n;
    violations.push({
      property: 'service-fee',
      message: exact
        ? `serviceFee ${payment.serviceFee} is not 0.5 % of ${payment.amount}, which is exact in minor units (${(amount * 5n) / 1000n}): nothing to round`
        : `serviceFee ${payment.serviceFee} is neither the floor nor the ceiling of 0.5 % of ${payment.amount} in minor units`,
    });
  }
  if (serviceFee !== divRoundHalfUp(amount * 5n, 1000n)) {
    violations.push({
      property: 'half-up',
      message: `serviceFee ${payment.serviceFee} is not 0.5 % of ${payment.amount} rounded half-up to ${minorUnits} decimals`,
    });
  }

  const requestedSellers = request.sellers ?? [];
  if (requestedSellers.length !== sellerNets.length) {
    violations.push({ property: 'identity', message: `${requestedSellers.length} sellers requested, ${sellerNets.length} returned` });
    return violations;
  }
  if (requestedSellers.length === 0) return violations;
  let sellerGross: bigint[], merchantGross: bigint;
  try {
    sellerGross = requestedSellers.map((s) => toUnits(s.amount, minorUnits));
    merchantGross =
      request.merchantAmount !== undefined ? toUnits(request.merchantAmount, minorUnits) : amount - sellerGross.reduce((a, b) => a + b, 0n);
  } catch {
    return violations; // shares the implementation should have refused: its create checks judge that
  }
  const shares = [
    { who: 'merchant', gross: merchantGross, net: merchantFee },
    ...sellerGross.map((gross, i) => ({ who: `seller ${i}`, gross, net: sellerNets[i]! })),
  ];
  // Every part exact: serviceFee is 0.5 % of amount exactly and so is each recipient's 0.5 % of its gross amount.
  const exactEverywhere = (amount * 5n) % 1000n === 0n && shares.every((share) => (share.gross * 5n) % 1000n === 0n);
  // Whatever the rounding, each of the n parts is off its exact value by less than one unit, and a part that takes
  // what the others left by less than n together: a part off by n units or more is not a rounding of a proportional split.
  const roundingBound = BigInt(shares.length) * amount;
  for (const share of shares) {
    const fee = share.gross - share.net;
    // Its proportional part of serviceFee is serviceFee·gross/amount; scaled by amount to stay in integers.
    const off = absBig(fee * amount - serviceFee * share.gross);
    if (exactEverywhere && off !== 0n) {
      violations.push({
        property: 'proportional',
        message: `${share.who}: gross ${share.gross}, net ${share.net} minor units: it bears a fee of ${fee}, but its proportional part of serviceFee ${serviceFee} is exactly ${(share.gross * 5n) / 1000n} (every part is exact in minor units: nothing to round)`,
      });
    } else if (off >= roundingBound) {
      violations.push({
        property: 'proportional',
        message: `${share.who}: gross ${share.gross}, net ${share.net} minor units: it bears a fee of ${fee}, ${shares.length} or more units off its proportional part of serviceFee ${serviceFee} (${share.gross}·${serviceFee}/${amount}): more than rounding ${shares.length} parts can explain`,
      });
    } else if (fee < 0n || off >= amount) {
      violations.push({
        property: 'share-rounding',
        message: `${share.who}: gross ${share.gross}, net ${share.net} minor units: its fee ${fee} is neither the floor nor the ceiling of its proportional part of serviceFee ${serviceFee}`,
      });
    }
  }
  return violations;
}
