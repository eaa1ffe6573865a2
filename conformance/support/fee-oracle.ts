// The fee properties of spec §2 ("Fee rules") in exact arithmetic, as the suite checks them:
// the split identity, the 0.5 % fee as the floor or ceiling of the exact value (only the exact value
// when it is representable), proportional deduction within one minor
// unit, and (assumed) half-up rounding. Returns the broken property, or null.
import { absBig, decimalsOf, divRoundHalfUp, isDecimalString, toUnits } from '../facts/decimal.ts';
import type { CreateBody, Payment } from './payments.ts';

export type FeeProperty = 'format' | 'identity' | 'service-fee' | 'proportional' | 'half-up' | 'minor-format';

export interface FeeViolation {
  property: FeeProperty;
  message: string;
}

function units(value: unknown, minorUnits: number, field: string): bigint {
  if (!isDecimalString(value)) throw new Error(`${field} is not a decimal string: ${JSON.stringify(value)}`);
  return toUnits(value, minorUnits);
}

export function checkFees(request: CreateBody, payment: Payment, minorUnits: number): FeeViolation[] {
  const violations: FeeViolation[] = [];
  let amount: bigint, serviceFee: bigint, merchantFee: bigint, sellerNets: bigint[];
  try {
    amount = units(payment.amount, minorUnits, 'amount');
    serviceFee = units(payment.serviceFee, minorUnits, 'serviceFee');
    merchantFee = units(payment.merchantFee, minorUnits, 'merchantFee');
    sellerNets = (payment.sellers ?? []).map((s, i) => units(s.amount, minorUnits, `sellers[${i}].amount`));
  } catch (error) {
    return [{ property: 'format', message: `${(error as Error).message} with at most ${minorUnits} decimals` }];
  }
  const fees = [
    ['serviceFee', payment.serviceFee],
    ['merchantFee', payment.merchantFee],
    ...(payment.sellers ?? []).map((s, i) => [`sellers[${i}].amount`, s.amount]),
  ] as const;
  const misformatted = fees.filter(([, value]) => decimalsOf(String(value)) !== minorUnits);
  if (misformatted.length) {
    violations.push({
      property: 'minor-format',
      message: `not written with exactly ${minorUnits} decimals: ${misformatted.map(([f, v]) => `${f} "${v}"`).join(', ')}`,
    });
  }
  const requested = toUnits(request.amount, minorUnits);
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
  const sellerGross = requestedSellers.map((s) => toUnits(s.amount, minorUnits));
  const merchantGross =
    request.merchantAmount !== undefined ? toUnits(request.merchantAmount, minorUnits) : amount - sellerGross.reduce((a, b) => a + b, 0n);
  const shares = [
    { who: 'merchant', gross: merchantGross, net: merchantFee },
    ...sellerGross.map((gross, i) => ({ who: `seller ${i}`, gross, net: sellerNets[i]! })),
  ];
  for (const share of shares) {
    const fee = share.gross - share.net;
    // fee/serviceFee should be gross/amount: |fee·amount − serviceFee·gross| <= amount (one minor unit).
    if (fee < 0n || absBig(fee * amount - serviceFee * share.gross) > amount) {
      violations.push({
        property: 'proportional',
        message: `${share.who}: gross ${share.gross}, net ${share.net} minor units; its fee ${fee} is not its proportional part of serviceFee ${serviceFee} (±1 minor unit)`,
      });
    }
  }
  return violations;
}
