// Prices a valid create request: the 0.5 % service fee and its split over the merchant and the
// sellers (money/fees.ts), written in the currency's minor unit as the payment keeps them.
import { formatUnits } from '../money/decimal.ts';
import { computeFees } from '../money/fees.ts';
import type { PaymentDraft } from './types.ts';
import type { CreateRequest } from './validate-create.ts';

export type PriceCreateRequest = (request: CreateRequest) => PaymentDraft;

export const priceCreateRequest: PriceCreateRequest = (request) => {
  const { currency, sellers } = request;
  const fees = computeFees(
    request.amountUnits,
    request.merchantGross,
    (sellers ?? []).map((s) => s.gross),
  );
  const format = (units: bigint): string => formatUnits(units, currency.minorUnits);
  return {
    amount: request.amount,
    currency: currency.code,
    title: request.title,
    externalId: request.externalId,
    acceptedChains: request.acceptedChains,
    acceptedTokens: request.acceptedTokens,
    serviceFee: format(fees.serviceFee),
    merchantFee: format(fees.merchantFee),
    sellers: sellers ? sellers.map((s, i) => ({ address: s.address, amount: format(fees.sellers[i] ?? 0n) })) : null,
    expiresAt: request.expiresAt,
  };
};
