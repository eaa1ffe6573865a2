// Exact decimal arithmetic on bigint units. Money never touches a JS number: a value with `scale`
// decimal places is held as an integer count of 10^-scale units.

const DECIMAL = /^(\d+)(?:\.(\d+))?$/;

export function pow10(scale: number): bigint {
  return 10n ** BigInt(scale);
}

/** Parse a non-negative decimal string with at most `scale` fraction digits into 10^-scale units. */
export function toUnits(value: string, scale: number): bigint {
  const match = DECIMAL.exec(value);
  if (!match) throw new RangeError(`not a decimal: ${JSON.stringify(value)}`);
  const fraction = match[2] ?? '';
  if (fraction.length > scale) throw new RangeError(`${value} has more than ${scale} decimal places`);
  return BigInt(`${match[1]}${fraction.padEnd(scale, '0')}`);
}

/** Format 10^-scale units with exactly `scale` fraction digits ("0.50", "100", "1.000000"). */
export function formatUnits(units: bigint, scale: number): string {
  const negative = units < 0n;
  const digits = (negative ? -units : units).toString().padStart(scale + 1, '0');
  const whole = digits.slice(0, digits.length - scale);
  const fraction = digits.slice(digits.length - scale);
  return `${negative ? '-' : ''}${whole}${scale > 0 ? `.${fraction}` : ''}`;
}

/** Rescale units from one scale to another, rounding up (towards +infinity) when precision is lost. */
export function rescaleCeil(units: bigint, from: number, to: number): bigint {
  if (to >= from) return units * pow10(to - from);
  return divCeil(units, pow10(from - to));
}

/** ceil(a / b) for b > 0. */
export function divCeil(a: bigint, b: bigint): bigint {
  if (b <= 0n) throw new RangeError('divisor must be positive');
  const q = a / b;
  return a % b > 0n ? q + 1n : q;
}

/** a / b rounded half-up, for a >= 0 and b > 0. */
export function divRoundHalfUp(a: bigint, b: bigint): bigint {
  if (b <= 0n || a < 0n) throw new RangeError('divRoundHalfUp expects a >= 0 and b > 0');
  return (2n * a + b) / (2n * b);
}

export function sum(values: readonly bigint[]): bigint {
  return values.reduce((acc, v) => acc + v, 0n);
}
