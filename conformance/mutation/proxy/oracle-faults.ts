// Oracles as exact as the rule (issue 25, class 6): the fee split per recipient where no rounding is involved, and
// zero-decimal currencies written without decimals. Both keep every identity a looser oracle checks: the parts still
// add up to the amount and each value is still a decimal string of the right size.
import { currency } from '../../facts/fixtures.ts';
import type { ProxyFault } from './response-faults.ts';
import { paymentsIn, shiftDecimal, type Json } from './rewrite-helpers.ts';

const withSellers = (p: Json): p is Json & { sellers: Json[] } => Array.isArray(p.sellers) && p.sellers.length > 0;

function zeroDecimal(p: Json): boolean {
  try {
    return currency(String(p.currency)).minorUnits === 0;
  } catch {
    return false;
  }
}

export const ORACLE_FAULTS: ProxyFault[] = [
  {
    name: 'fee-shifted-between-recipients',
    class: 'oracle',
    level: 'documented',
    breaks: ['PAY-FEE-SELLERS-PROPORTIONAL'],
    description:
      'With sellers, one minor unit of fee moves from the first seller to the merchant (merchantFee −1, sellers[0].amount +1): the parts still add up',
    response: (r) =>
      paymentsIn(r)
        .filter(withSellers)
        .forEach((p) => {
          const merchant = shiftDecimal(p.merchantFee, -1n);
          if (merchant === p.merchantFee) return;
          p.merchantFee = merchant;
          p.sellers[0]!.amount = shiftDecimal(p.sellers[0]!.amount, 1n);
        }),
  },
  {
    name: 'zero-decimal-fee-with-decimals',
    class: 'oracle',
    level: 'documented',
    breaks: ['FMT-ZERO-DECIMAL-AMOUNTS'],
    description: 'JPY, IDR and VND fees are written with two zero decimals ("80.00" instead of "80"): the value is right',
    response: (r) =>
      paymentsIn(r)
        .filter(zeroDecimal)
        .forEach((p) => {
          for (const field of ['serviceFee', 'merchantFee'] as const)
            if (typeof p[field] === 'string' && /^\d+$/.test(p[field])) p[field] = `${p[field]}.00`;
        }),
  },
];
