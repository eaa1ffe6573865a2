// Fiat amount rules (decisions.md): grammar, maximum, zero-decimal currencies, per-currency minimum.
import type { Currency } from '../reference-data/currencies.ts';
import { toUnits } from '../money/decimal.ts';

export const AMOUNT_PATTERN = /^(0|[1-9][0-9]*)(\.[0-9]{1,2})?$/;
export const AMOUNT_MAXIMUM = '1000000000000';

const MAXIMUM_UNITS = toUnits(AMOUNT_MAXIMUM, 2);

// The currencies' minimums are parsed once each (every create checks its amount against one).
const parsedMinimums = new Map<string, bigint>();
function unitsOf(minimum: string): bigint {
  let units = parsedMinimums.get(minimum);
  if (units === undefined) {
    units = toUnits(minimum, 2);
    parsedMinimums.set(minimum, units);
  }
  return units;
}

export interface AmountRule {
  /** Field name used in messages. */
  name: string;
  /** 'minimum': currency minimum applies; 'positive': > 0; 'non-negative': >= 0. */
  floor: 'minimum' | 'positive' | 'non-negative';
}

/**
 * Why `value` is not a valid amount, or undefined when it is. `currency` is undefined when the
 * request's currency is itself invalid: then only the currency-independent rules apply.
 */
export function amountProblem(value: unknown, currency: Currency | undefined, rule: AmountRule): string | undefined {
  if (typeof value !== 'string') return `${rule.name} must be a string`;
  if (!AMOUNT_PATTERN.test(value)) return `${rule.name} must be a decimal string with at most 2 decimal places (e.g. "100", "100.5")`;
  if (currency?.minorUnits === 0 && value.includes('.')) {
    return `${rule.name} must be a whole number for ${currency?.code} (zero-decimal currency)`;
  }
  const units = toUnits(value, 2);
  if (units > MAXIMUM_UNITS) return `${rule.name} must not exceed ${AMOUNT_MAXIMUM}`;
  if (rule.floor === 'positive' && units === 0n) return `${rule.name} must be greater than 0`;
  if (rule.floor === 'minimum' && currency && units < unitsOf(currency.minimum)) {
    return `${rule.name} must be at least ${currency.minimum} ${currency.code}`;
  }
  return undefined;
}
