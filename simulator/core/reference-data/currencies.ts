// The 14 fiat currencies (spec §1) with their minor units and assumed minimums, read once from fixtures.
import fixture from '../../../fixtures/currencies.json' with { type: 'json' };

export interface Currency {
  code: string;
  /** Decimal places of the minor unit: 2, or 0 for JPY, IDR, VND. */
  minorUnits: number;
  /** Smallest accepted amount, a decimal string. */
  minimum: string;
}

export const CURRENCIES: ReadonlyMap<string, Currency> = new Map(
  fixture.currencies.map((c) => [c.code, { code: c.code, minorUnits: c.minorUnits, minimum: c.minimum }]),
);

export const CURRENCY_CODES: readonly string[] = [...CURRENCIES.keys()];

export function findCurrency(code: string): Currency | undefined {
  return CURRENCIES.get(code);
}

export function currencyOrThrow(code: string): Currency {
  const currency = CURRENCIES.get(code);
  if (!currency) throw new RangeError(`unknown currency ${code}`);
  return currency;
}
