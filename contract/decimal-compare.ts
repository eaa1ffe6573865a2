// Exact comparison of non-negative decimal strings: amounts are strings, so JSON Schema's numeric
// bounds cannot apply to them and floats would round (1000000000000.01 > 1e12 must hold).

const DECIMAL = /^(\d+)(?:\.(\d+))?$/;

export function isDecimalString(value: string): boolean {
  return DECIMAL.test(value);
}

/** Compares two non-negative decimal strings: -1 if a < b, 0 if equal, 1 if a > b. */
export function compareDecimals(a: string, b: string): -1 | 0 | 1 {
  const ma = DECIMAL.exec(a);
  const mb = DECIMAL.exec(b);
  if (!ma || !mb) throw new Error(`not a decimal string: ${ma ? b : a}`);
  const intA = (ma[1] ?? '').replace(/^0+(?=\d)/, '');
  const intB = (mb[1] ?? '').replace(/^0+(?=\d)/, '');
  if (intA.length !== intB.length) return intA.length < intB.length ? -1 : 1;
  if (intA !== intB) return intA < intB ? -1 : 1;
  const fracA = ma[2] ?? '';
  const fracB = mb[2] ?? '';
  const width = Math.max(fracA.length, fracB.length);
  const padA = fracA.padEnd(width, '0');
  const padB = fracB.padEnd(width, '0');
  if (padA === padB) return 0;
  return padA < padB ? -1 : 1;
}
