// Exact decimal arithmetic for fiat amounts: values are bigint counts of 10^-scale units.
// The suite never uses floating point for money; fee properties must hold to the minor unit.

export interface Decimal {
  /** Integer value in units of 10^-scale. */
  units: bigint;
  scale: number;
}

const DECIMAL = /^(-?)(\d+)(?:\.(\d+))?$/;

export function parseDecimal(text: string): Decimal {
  const match = DECIMAL.exec(text);
  if (!match) throw new Error(`not a decimal string: ${JSON.stringify(text)}`);
  const [, sign, whole, fraction = ''] = match;
  const units = BigInt(`${whole}${fraction}`) * (sign === '-' ? -1n : 1n);
  return { units, scale: fraction.length };
}

export function isDecimalString(text: unknown): text is string {
  return typeof text === 'string' && DECIMAL.test(text);
}

/** Value in units of 10^-scale; throws if it would lose precision. */
export function toUnits(text: string, scale: number): bigint {
  const value = parseDecimal(text);
  if (value.scale <= scale) return value.units * 10n ** BigInt(scale - value.scale);
  const factor = 10n ** BigInt(value.scale - scale);
  if (value.units % factor !== 0n) throw new Error(`${text} has more than ${scale} decimals`);
  return value.units / factor;
}

/** Like toUnits but never throws: rescales to a common, larger scale. */
export function toScale(text: string, scale: number): bigint {
  const value = parseDecimal(text);
  if (value.scale > scale) throw new Error(`${text} has more than ${scale} decimals`);
  return value.units * 10n ** BigInt(scale - value.scale);
}

export function formatUnits(units: bigint, scale: number): string {
  const negative = units < 0n;
  const digits = (negative ? -units : units).toString().padStart(scale + 1, '0');
  const whole = digits.slice(0, digits.length - scale);
  const fraction = digits.slice(digits.length - scale);
  return `${negative ? '-' : ''}${whole}${scale > 0 ? `.${fraction}` : ''}`;
}

/** Number of decimals written in a decimal string ("100.50" -> 2, "7" -> 0). */
export function decimalsOf(text: string): number {
  return parseDecimal(text).scale;
}

export function absBig(value: bigint): bigint {
  return value < 0n ? -value : value;
}

/** numerator/denominator rounded half-up (both non-negative). */
export function divRoundHalfUp(numerator: bigint, denominator: bigint): bigint {
  return (2n * numerator + denominator) / (2n * denominator);
}

export function sumBig(values: bigint[]): bigint {
  return values.reduce((total, value) => total + value, 0n);
}
