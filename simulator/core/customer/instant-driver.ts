// Settles in memory the moment the control API asks: the rate is locked from the rate table,
// the "transaction" gets a random 0x… hash and an assumed gas cost.
import { findChain } from '@stablepay/contract/chain-table';
import { formatUnits } from '../money/decimal.ts';
import { gasCostInToken } from '../money/gas.ts';
import { TOKEN_SCALE } from '../money/token-amounts.ts';
import type { PaymentEvent } from '../payments/state-machine.ts';
import type { Payment } from '../payments/types.ts';
import type { SettlementContext, SettlementDriver } from './settlement-driver.ts';
import { refusalError } from './settlement-driver.ts';

/** Assumed gas of one batched user operation (merchant + sellers + fee transfers) and its price. */
export const INSTANT_GAS_USED = 180_000n;
export const INSTANT_GAS_PRICE_WEI = 1_000_000_000n;

export function createInstantDriver(context: SettlementContext): SettlementDriver {
  const { payments, rates, random } = context;

  const apply = (payment: Payment, event: PaymentEvent): Payment => {
    const result = payments.apply(payment.id, event);
    if (!result.ok) {
      // A submit at or after expiresAt is refused and the payment expires there and then.
      if (result.refusal.reason === 'expired') payments.apply(payment.id, { type: 'clock.expired' });
      throw refusalError(result.refusal);
    }
    return result.payment;
  };

  return {
    async submit(payment, choice) {
      return apply(payment, { type: 'customer.submitted', ...choice, exchangeRate: rates.rateString(payment.currency) });
    },
    async confirm(payment) {
      const chain = payment.chainId === null ? undefined : findChain(payment.chainId);
      const gas = chain ? gasCostInToken(INSTANT_GAS_USED, INSTANT_GAS_PRICE_WEI, chain.nativeUsdPrice) : 0n;
      return apply(payment, { type: 'chain.confirmed', txHash: random.hex(32), gasActual: formatUnits(gas, TOKEN_SCALE) });
    },
    async fail(payment, error) {
      return apply(payment, error.source === 'bundler' ? { type: 'bundler.rejected', error } : { type: 'chain.failed', error });
    },
  };
}
