// The fixed, configurable rate table: token units per 1 unit of fiat, six decimals. USDC and USDT
// are both treated as 1 USD, so one rate per currency serves both tokens.
import fixture from '../../../fixtures/exchange-rates.json' with { type: 'json' };
import { formatUnits, toUnits } from '../money/decimal.ts';
import { RATE_SCALE } from '../money/token-amounts.ts';
import { CURRENCIES } from './currencies.ts';
import { SETTING_KIND, type Persist } from '../support/persist.ts';

/** Six-decimal positive rate, e.g. "1.080000" (fewer decimals are accepted and padded). */
export const RATE_PATTERN = /^(0|[1-9][0-9]{0,11})(\.[0-9]{1,6})?$/;

export class ExchangeRates {
  private readonly rates = new Map<string, bigint>();
  /** Durable mode: set after start-up; from then on every change is reported (the control API's overrides). */
  persist: Persist | undefined;
  /** What changed since persist was set: only overrides are kept, so the configured table stays the base. */
  private readonly overrides: Record<string, string> = {};

  /** The table before any override (what a change undone or made elsewhere is laid over). */
  private configured: Readonly<Record<string, string>> = {};

  constructor(initial: Readonly<Record<string, string>> = fixture.rates) {
    this.update(initial);
  }

  /** Locked rate in micro units for `currency`. */
  rateMicro(currency: string): bigint {
    const rate = this.rates.get(currency);
    if (rate === undefined) throw new RangeError(`no exchange rate for ${currency}`);
    return rate;
  }

  rateString(currency: string): string {
    return formatUnits(this.rateMicro(currency), RATE_SCALE);
  }

  /** Replace the given currencies' rates. Callers validate with `rateProblem` first. */
  update(rates: Readonly<Record<string, string>>): void {
    for (const [currency, value] of Object.entries(rates)) {
      const problem = rateProblem(currency, value);
      if (problem) throw new RangeError(problem);
      this.rates.set(currency, toUnits(value as string, RATE_SCALE));
    }
    if (!this.persist) this.configured = { ...this.configured, ...rates };
    else {
      Object.assign(this.overrides, rates);
      this.persist.put(SETTING_KIND, 'exchange-rates', { ...this.overrides });
    }
  }

  /** Durable mode, at start: the overrides the state dir kept go over the configured table. */
  restore(overrides: Readonly<Record<string, string>>): void {
    this.applyOverrides(overrides);
  }

  /** Durable mode: the overrides as the database has them, over the configured table, not reported again. */
  applyOverrides(overrides: Readonly<Record<string, string>>): void {
    for (const [currency, value] of Object.entries({ ...this.configured, ...overrides }))
      this.rates.set(currency, toUnits(value, RATE_SCALE));
    for (const currency of Object.keys(this.overrides)) delete this.overrides[currency];
    Object.assign(this.overrides, overrides);
  }

  toJSON(): Record<string, string> {
    return Object.fromEntries([...this.rates].map(([c, r]) => [c, formatUnits(r, RATE_SCALE)]));
  }
}

/** Why (currency, value) is not a valid rate entry, or undefined when it is. */
export function rateProblem(currency: string, value: unknown): string | undefined {
  if (!CURRENCIES.has(currency)) return `Unknown currency ${currency}`;
  if (typeof value !== 'string' || !RATE_PATTERN.test(value)) {
    return 'Rate must be a decimal string with up to 6 decimal places';
  }
  if (toUnits(value, RATE_SCALE) === 0n) return 'Rate must be greater than 0';
  return undefined;
}
