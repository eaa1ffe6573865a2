// Validation of POST /v1/payments bodies (spec §4 + decisions.md). Produces one problem per
// invalid field with its JSON path, or the request in minor units, ready for pricing (pricing.ts).
import type { TokenSymbol } from '@stablepay/contract/chain-table';
import { CHAIN_IDS, hasSupportedPair, TOKENS } from '@stablepay/contract/chain-table';
import type { Currency } from '../reference-data/currencies.ts';
import { CURRENCY_CODES, findCurrency } from '../reference-data/currencies.ts';
import { sum, toUnits } from '../money/decimal.ts';
import {
  addressProblem,
  amountProblem,
  charLength,
  isPlainObject,
  parseDateTime,
  Problems,
  rejectUnknownFields,
} from '../validation/index.ts';

export const CREATE_FIELDS = [
  'amount',
  'currency',
  'title',
  'externalId',
  'acceptedChains',
  'acceptedTokens',
  'expiresAt',
  'sellers',
  'merchantAmount',
] as const;

export const TITLE_MAX = 255;
export const EXTERNAL_ID_PATTERN = /^[A-Za-z0-9._-]{1,36}$/;
export const MAX_SELLERS = 5;
export const EXPIRY_MIN_MS = 15 * 60_000;
export const EXPIRY_MAX_MS = 30 * 24 * 3_600_000;

/** A valid create request: the fields as the payment keeps them, the shares in minor units. */
export interface CreateRequest {
  /** As sent (the payment echoes it). */
  amount: string;
  currency: Currency;
  title: string | null;
  externalId: string | null;
  acceptedChains: number[];
  acceptedTokens: TokenSymbol[];
  expiresAt: number | undefined;
  /** Minor units of the currency. */
  amountUnits: bigint;
  merchantGross: bigint;
  sellers: { address: string; gross: bigint }[] | null;
}

export type CreateRequestValidation = { ok: true; request: CreateRequest } | { ok: false; problems: Problems };

export function validateCreateRequest(body: unknown, now: number): CreateRequestValidation {
  const problems = new Problems();
  if (!isPlainObject(body)) {
    problems.add([], 'Request body must be a JSON object');
    return { ok: false, problems };
  }
  rejectUnknownFields(body, CREATE_FIELDS, problems);

  const currency = checkCurrency(body.currency, problems);
  checkRequired(body, 'amount', problems);
  if (body.amount !== undefined) {
    const problem = amountProblem(body.amount, currency, { name: 'amount', floor: 'minimum' });
    if (problem) problems.add(['amount'], problem);
  }
  const title = checkTitle(body.title, problems);
  const externalId = checkExternalId(body.externalId, problems);
  const acceptedChains = checkList(body.acceptedChains, 'acceptedChains', CHAIN_IDS, problems);
  const acceptedTokens = checkList(body.acceptedTokens, 'acceptedTokens', TOKENS, problems) as TokenSymbol[] | undefined;
  if (acceptedChains && acceptedTokens && !hasSupportedPair(acceptedChains, acceptedTokens)) {
    problems.add(['acceptedTokens'], 'No accepted token is available on any accepted chain');
  }
  const expiresAt = checkExpiresAt(body.expiresAt, now, problems);
  const sellers = checkSellers(body.sellers, currency, problems);
  if (body.merchantAmount !== undefined) {
    const problem = amountProblem(body.merchantAmount, currency, { name: 'merchantAmount', floor: 'non-negative' });
    if (problem) problems.add(['merchantAmount'], problem);
  }
  if (problems.size > 0 || !currency) return { ok: false, problems };

  const minor = (v: string): bigint => toUnits(v, 2) / 10n ** BigInt(2 - currency.minorUnits);
  const amount = minor(body.amount as string);
  const sellerGross = (sellers ?? []).map((s) => minor(s.amount));
  let merchantGross = amount - sum(sellerGross);
  if (body.merchantAmount !== undefined) {
    const given = minor(body.merchantAmount as string);
    if (given !== merchantGross) {
      problems.add(
        ['merchantAmount'],
        sellers
          ? "merchantAmount plus the sellers' amounts must equal amount"
          : 'merchantAmount must equal amount when there are no sellers',
      );
      return { ok: false, problems };
    }
    merchantGross = given;
  } else if (merchantGross <= 0n) {
    // Without merchantAmount the merchant takes the remainder, which must be positive.
    problems.add(['sellers'], "The sellers' amounts must add up to less than amount when merchantAmount is omitted");
    return { ok: false, problems };
  }

  return {
    ok: true,
    request: {
      amount: body.amount as string,
      currency,
      title,
      externalId,
      acceptedChains: acceptedChains ?? [...CHAIN_IDS],
      acceptedTokens: acceptedTokens ?? [...TOKENS],
      expiresAt,
      amountUnits: amount,
      merchantGross,
      sellers: sellers ? sellers.map((s, i) => ({ address: s.address, gross: sellerGross[i] as bigint })) : null,
    },
  };
}

function checkRequired(body: Record<string, unknown>, field: string, problems: Problems): void {
  if (body[field] === undefined) problems.add([field], `${field} is required`);
}

function checkCurrency(value: unknown, problems: Problems): Currency | undefined {
  if (value === undefined) {
    problems.add(['currency'], 'currency is required');
    return undefined;
  }
  const currency = typeof value === 'string' ? findCurrency(value) : undefined;
  if (!currency) problems.add(['currency'], `currency must be one of ${CURRENCY_CODES.join(', ')}`);
  return currency;
}

function checkTitle(value: unknown, problems: Problems): string | null {
  if (value === undefined || value === null) return null;
  if (typeof value !== 'string') problems.add(['title'], 'title must be a string');
  else if (charLength(value) > TITLE_MAX) problems.add(['title'], `title must be at most ${TITLE_MAX} characters`);
  else return value;
  return null;
}

function checkExternalId(value: unknown, problems: Problems): string | null {
  if (value === undefined || value === null) return null;
  if (typeof value !== 'string') problems.add(['externalId'], 'externalId must be a string');
  else if (value.length === 0 || value.length > 36) problems.add(['externalId'], 'externalId must be 1 to 36 characters');
  else if (!EXTERNAL_ID_PATTERN.test(value)) {
    problems.add(['externalId'], 'externalId may contain only letters, digits, hyphen, underscore and dot');
  } else return value;
  return null;
}

/** A non-empty, duplicate-free subset of `allowed`; one problem per bad element. */
function checkList<T extends number | string>(value: unknown, field: string, allowed: readonly T[], problems: Problems): T[] | undefined {
  if (value === undefined) return undefined;
  if (!Array.isArray(value)) {
    problems.add([field], `${field} must be an array`);
    return undefined;
  }
  if (value.length === 0) {
    problems.add([field], `${field} must not be empty`);
    return undefined;
  }
  const seen = new Set<unknown>();
  value.forEach((item, i) => {
    if (!allowed.includes(item as T)) problems.add([field, i], `${field}[${i}] must be one of ${allowed.join(', ')}`);
    else if (seen.has(item)) problems.add([field, i], `${field}[${i}] is a duplicate`);
    seen.add(item);
  });
  return problems.hasUnder([field]) ? undefined : (value as T[]);
}

function checkExpiresAt(value: unknown, now: number, problems: Problems): number | undefined {
  if (value === undefined) return undefined;
  const at = typeof value === 'string' ? parseDateTime(value) : undefined;
  if (at === undefined) problems.add(['expiresAt'], 'expiresAt must be an ISO 8601 date-time (e.g. 2026-11-21T10:00:00.000Z)');
  else if (at < now + EXPIRY_MIN_MS || at > now + EXPIRY_MAX_MS) {
    problems.add(['expiresAt'], 'expiresAt must be between 15 minutes and 30 days from now');
  } else return at;
  return undefined;
}

interface SellerInput {
  address: string;
  amount: string;
}

function checkSellers(value: unknown, currency: Currency | undefined, problems: Problems): SellerInput[] | null {
  if (value === undefined || value === null) return null;
  if (!Array.isArray(value)) {
    problems.add(['sellers'], 'sellers must be an array');
    return null;
  }
  if (value.length === 0 || value.length > MAX_SELLERS) {
    problems.add(['sellers'], `sellers must have 1 to ${MAX_SELLERS} items (omit it or send null for none)`);
    return null;
  }
  const addresses = new Set<string>();
  value.forEach((seller: unknown, i) => {
    if (!isPlainObject(seller)) {
      problems.add(['sellers', i], 'Seller must be an object with address and amount');
      return;
    }
    rejectUnknownFields(seller, ['address', 'amount'], problems, ['sellers', i]);
    const addressIssue = seller.address === undefined ? 'address is required' : addressProblem(seller.address);
    if (addressIssue) problems.add(['sellers', i, 'address'], addressIssue);
    else if (addresses.has((seller.address as string).toLowerCase())) problems.add(['sellers', i, 'address'], 'Duplicate seller address');
    if (typeof seller.address === 'string') addresses.add(seller.address.toLowerCase());
    const amountIssue =
      seller.amount === undefined ? 'amount is required' : amountProblem(seller.amount, currency, { name: 'amount', floor: 'positive' });
    if (amountIssue) problems.add(['sellers', i, 'amount'], amountIssue);
  });
  return problems.hasUnder(['sellers']) ? null : (value as SellerInput[]);
}
