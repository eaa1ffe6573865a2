// Faults of creating a payment: wrappers of create-body validation and of pricing.
import { findCurrency } from '../core/reference-data/currencies.ts';
import { formatUnits } from '../core/money/decimal.ts';
import type { PriceCreateRequest, ValidateCreateRequest } from '../core/payments/index.ts';
import { TITLE_MAX } from '../core/payments/validate-create.ts';
import { AMOUNT_PATTERN, charLength, isPlainObject } from '../core/validation/index.ts';
import { computeFeesWithFloats } from './float-fees.ts';

/**
 * `zero-decimal-only-jpy`: the zero-decimal rule is coded for JPY only. Another zero-decimal
 * currency's fractional amount is validated by its whole part, kept as sent, and priced on the
 * whole part (the fraction is silently dropped from the money).
 */
export const zeroDecimalOnlyJpy =
  (base: ValidateCreateRequest): ValidateCreateRequest =>
  (body, now) => {
    if (!isPlainObject(body) || typeof body.amount !== 'string' || typeof body.currency !== 'string') return base(body, now);
    const currency = findCurrency(body.currency);
    const fractional = AMOUNT_PATTERN.test(body.amount) && body.amount.includes('.');
    if (!fractional || currency?.minorUnits !== 0 || currency.code === 'JPY') return base(body, now);
    const sent = body.amount;
    const checked = base({ ...body, amount: sent.slice(0, sent.indexOf('.')) }, now);
    return checked.ok ? { ok: true, request: { ...checked.request, amount: sent } } : checked;
  };

/** `title-truncated-not-refused`: a title over the maximum is cut to it (VARCHAR semantics). */
export const titleTruncated =
  (base: ValidateCreateRequest): ValidateCreateRequest =>
  (body, now) =>
    isPlainObject(body) && typeof body.title === 'string' && charLength(body.title) > TITLE_MAX
      ? base({ ...body, title: [...body.title].slice(0, TITLE_MAX).join('') }, now)
      : base(body, now);

/** `fee-binary-float`: the fees computed with JS numbers (float-fees.ts). */
export const floatFees =
  (base: PriceCreateRequest): PriceCreateRequest =>
  (request) => {
    const draft = base(request);
    const { minorUnits } = request.currency;
    const fees = computeFeesWithFloats(
      request.amountUnits,
      request.merchantGross,
      (request.sellers ?? []).map((s) => s.gross),
      minorUnits,
    );
    const format = (units: bigint): string => formatUnits(units, minorUnits);
    return {
      ...draft,
      serviceFee: format(fees.serviceFee),
      merchantFee: format(fees.merchantFee),
      sellers: draft.sellers ? draft.sellers.map((s, i) => ({ ...s, amount: format(fees.sellers[i] ?? 0n) })) : null,
    };
  };

/**
 * `fee-truncated-zero-decimal`: for zero-decimal currencies the reported serviceFee is recomputed
 * by integer division, while the shares were split from the rounded fee.
 */
export const truncatedZeroDecimalFee =
  (base: PriceCreateRequest): PriceCreateRequest =>
  (request) => {
    const draft = base(request);
    const { minorUnits } = request.currency;
    return minorUnits === 0 ? { ...draft, serviceFee: formatUnits((request.amountUnits * 5n) / 1000n, minorUnits) } : draft;
  };

/** `seller-amounts-before-fee`: sellers[].amount echoes the gross amount asked for. */
export const sellerAmountsBeforeFee =
  (base: PriceCreateRequest): PriceCreateRequest =>
  (request) => {
    const draft = base(request);
    const gross = request.sellers;
    if (!draft.sellers || !gross) return draft;
    return {
      ...draft,
      sellers: draft.sellers.map((s, i) => ({ ...s, amount: formatUnits(gross[i]?.gross ?? 0n, request.currency.minorUnits) })),
    };
  };
