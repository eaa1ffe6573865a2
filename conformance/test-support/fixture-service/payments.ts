// Payments as spec §2-§4 and §8 describe them: the create rules (one errors[] entry per invalid field), the 0.5 %
// fee split across the recipients, and the two views. Choices the spec leaves open come from FixtureChoices.
import { randomUUID } from 'node:crypto';
import currencies from '../../../fixtures/currencies.json' with { type: 'json' };
import rates from '../../../fixtures/exchange-rates.json' with { type: 'json' };
import { divRoundHalfUp, formatUnits, toUnits } from '../../facts/decimal.ts';
import type { FixtureState, Payment, Seller } from './state.ts';

export const CHAINS: Record<number, string[]> = {
  1: ['USDC', 'USDT'],
  42161: ['USDC', 'USDT'],
  8453: ['USDC'],
  137: ['USDC', 'USDT'],
  56: ['USDT'],
};
const MINOR = Object.fromEntries(currencies.currencies.map((c) => [c.code, c.minorUnits]));
const MINIMUM = Object.fromEntries(currencies.currencies.map((c) => [c.code, c.minimum]));
const AMOUNT = /^(0|[1-9][0-9]*)(\.[0-9]{1,2})?$/;
const EXTERNAL_ID = /^[A-Za-z0-9._-]{1,36}$/;
const ADDRESS = /^0x[0-9a-fA-F]{40}$/;
const MAXIMUM = 1_000_000_000_000n;
const MINUTE = 60_000;
const DAY = 86_400_000;
const FIELDS = new Set([
  'amount',
  'currency',
  'title',
  'externalId',
  'acceptedChains',
  'acceptedTokens',
  'expiresAt',
  'sellers',
  'merchantAmount',
]);

export interface FieldError {
  path: string[];
  message: string;
}

/** A decimal amount of `currency` in minor units, or an error message. */
function units(value: unknown, currency: string): bigint | string {
  if (typeof value !== 'string' || !AMOUNT.test(value)) return 'must be a decimal string with 0 to 2 decimals';
  const minor = MINOR[currency] ?? 2;
  if (minor === 0 && value.includes('.')) return `${currency} takes no decimals`;
  return toUnits(value, minor);
}

export function validateCreate(state: FixtureState, body: unknown): { errors: FieldError[]; value?: Record<string, unknown> } {
  if (body === null || typeof body !== 'object' || Array.isArray(body))
    return { errors: [{ path: [], message: 'body must be a JSON object' }] };
  const b = body as Record<string, unknown>;
  const errors: FieldError[] = [];
  const fail = (path: string[], message: string) => errors.push({ path, message });
  for (const key of Object.keys(b)) if (!FIELDS.has(key)) fail([key], 'unknown field');
  const currency = typeof b.currency === 'string' && b.currency in MINOR ? b.currency : null;
  if (!currency) fail(['currency'], 'must be one of the 14 supported currencies');
  let amount: bigint | null = null;
  if (b.amount === undefined) fail(['amount'], 'is required');
  else if (currency) {
    const parsed = units(b.amount, currency);
    const zeroDecimalFault =
      state.has('zero-decimal-idr-fraction') && currency === 'IDR' && typeof b.amount === 'string' && /^[0-9]+\.[0-9]{1,2}$/.test(b.amount);
    if (zeroDecimalFault) amount = toUnits(String(b.amount).split('.')[0]!, 0);
    else if (typeof parsed === 'string') fail(['amount'], parsed);
    else {
      const minor = MINOR[currency]!;
      const minimum = toUnits(state.choices.minimums[currency] ?? MINIMUM[currency]!, minor);
      if (parsed > MAXIMUM * 10n ** BigInt(minor)) fail(['amount'], 'must be at most 1000000000000');
      else if (parsed < minimum) fail(['amount'], `must be at least ${formatUnits(minimum, minor)}`);
      else amount = parsed;
    }
  } else if (typeof b.amount !== 'string') fail(['amount'], 'must be a string');
  if (b.title !== undefined && b.title !== null && (typeof b.title !== 'string' || b.title.length > 255))
    fail(['title'], 'must be a string of at most 255 characters');
  if (b.externalId !== undefined && b.externalId !== null && (typeof b.externalId !== 'string' || !EXTERNAL_ID.test(b.externalId)))
    fail(['externalId'], 'must be 1 to 36 letters, digits, hyphens, underscores or dots');
  const chains = b.acceptedChains ?? Object.keys(CHAINS).map(Number);
  const tokens = b.acceptedTokens ?? ['USDC', 'USDT'];
  if (
    !Array.isArray(chains) ||
    chains.length === 0 ||
    new Set(chains).size !== chains.length ||
    !chains.every((c) => typeof c === 'number' && c in CHAINS)
  )
    fail(['acceptedChains'], 'must be a non-empty list of supported chain ids');
  else if (
    !Array.isArray(tokens) ||
    tokens.length === 0 ||
    new Set(tokens).size !== tokens.length ||
    !tokens.every((t) => t === 'USDC' || t === 'USDT')
  )
    fail(['acceptedTokens'], 'must be a non-empty list of USDC, USDT');
  else if (!chains.some((c) => CHAINS[c as number]!.some((t) => tokens.includes(t))))
    fail(['acceptedTokens'], 'no accepted chain carries an accepted token');
  const now = state.now();
  let expiresAt = now + 60 * MINUTE;
  if (b.expiresAt !== undefined) {
    const at = typeof b.expiresAt === 'string' && /^\d{4}-\d\d-\d\dT/.test(b.expiresAt) ? Date.parse(b.expiresAt) : NaN;
    if (!Number.isFinite(at) || at < now + 15 * MINUTE || at > now + 30 * DAY)
      fail(['expiresAt'], 'must be between 15 minutes and 30 days from now');
    else expiresAt = at;
  }
  let sellers: { address: string; units: bigint }[] = [];
  if (b.sellers !== undefined && b.sellers !== null) {
    if (!Array.isArray(b.sellers) || b.sellers.length === 0 || b.sellers.length > 5) fail(['sellers'], 'must hold 1 to 5 sellers');
    else {
      b.sellers.forEach((seller, i) => {
        const s = seller as { address?: unknown; amount?: unknown };
        if (typeof s?.address !== 'string' || !ADDRESS.test(s.address)) fail(['sellers', String(i), 'address'], 'must be an address');
        const parsed = currency ? units(s?.amount, currency) : 'unknown currency';
        if (typeof parsed === 'string' || parsed <= 0n) fail(['sellers', String(i), 'amount'], 'must be a positive amount');
        else sellers.push({ address: String(s.address), units: parsed });
      });
      if (new Set(sellers.map((s) => s.address.toLowerCase())).size !== sellers.length) fail(['sellers'], 'addresses must differ');
    }
  }
  let merchantGross: bigint | null = null;
  if (amount !== null && errors.length === 0) {
    const sellerSum = sellers.reduce((sum, s) => sum + s.units, 0n);
    if (b.merchantAmount !== undefined) {
      const parsed = units(b.merchantAmount, currency!);
      if (typeof parsed === 'string') fail(['merchantAmount'], parsed);
      else if (parsed + sellerSum !== amount) fail(['merchantAmount'], 'merchantAmount + sellers must equal amount');
      else merchantGross = parsed;
    } else if (sellerSum >= amount) fail(['sellers'], 'sellers must leave the merchant a positive remainder');
    else merchantGross = amount - sellerSum;
  } else sellers = [];
  if (errors.length > 0) return { errors };
  return {
    errors,
    value: {
      amount: b.amount,
      units: amount,
      currency,
      title: b.title ?? null,
      externalId: b.externalId ?? null,
      chains,
      tokens,
      expiresAt,
      sellers,
      merchantGross,
    },
  };
}

/** serviceFee = 0.5 % half-up; split over the gross shares by largest remainder, so the parts add up exactly. */
export function fees(
  state: FixtureState,
  amount: bigint,
  merchantGross: bigint,
  sellers: { units: bigint }[],
): { service: bigint; merchantNet: bigint; sellerNets: bigint[] } {
  let service = divRoundHalfUp(amount * 5n, 1000n);
  if (state.has('fee-off-when-exact') && (amount * 5n) % 1000n === 0n) service += 1n;
  const gross = [merchantGross, ...sellers.map((s) => s.units)];
  const exact = gross.map((g) => g * service);
  const shares = exact.map((e) => e / amount);
  let left = service - shares.reduce((a, b) => a + b, 0n);
  const order = exact.map((e, i) => ({ i, rest: e % amount })).sort((a, b) => (b.rest > a.rest ? 1 : b.rest < a.rest ? -1 : a.i - b.i));
  for (const { i } of order) {
    if (left <= 0n) break;
    shares[i]! += 1n;
    left -= 1n;
  }
  return { service, merchantNet: gross[0]! - shares[0]!, sellerNets: gross.slice(1).map((g, i) => g - shares[i + 1]!) };
}

export function createPayment(state: FixtureState, merchantId: string, v: Record<string, unknown>): Payment {
  const currency = String(v.currency);
  const minor = MINOR[currency]!;
  const sellers = v.sellers as { address: string; units: bigint }[];
  const split = fees(state, v.units as bigint, v.merchantGross as bigint, sellers);
  const now = state.now();
  const payment: Payment = {
    id: randomUUID(),
    merchantId,
    status: 'ACTIVE',
    amount: String(v.amount),
    currency,
    title: v.title as string | null,
    externalId: v.externalId as string | null,
    acceptedChains: v.chains as number[],
    acceptedTokens: v.tokens as string[],
    serviceFee: formatUnits(split.service, minor),
    merchantFee: formatUnits(split.merchantNet, minor),
    sellers: sellers.length
      ? sellers.map((s, i): Seller => ({ address: s.address, amount: formatUnits(split.sellerNets[i]!, minor) }))
      : null,
    chainId: null,
    token: null,
    exchangeRate: null,
    amountToken: null,
    serviceFeeToken: null,
    merchantFeeToken: null,
    gasActual: null,
    txHash: null,
    error: null,
    expiresAt: v.expiresAt as number,
    paidAt: null,
    createdAt: now,
    updatedAt: now,
    seq: state.next(),
  };
  state.payments.set(payment.id, payment);
  return payment;
}

/** The rate locked at initiation and the token amounts, rounded up to 6 decimals. */
export function initiate(payment: Payment, chainId: number, token: string, now: number): void {
  const minor = MINOR[payment.currency]!;
  const rate = toUnits((rates.rates as Record<string, string>)[payment.currency]!, 6);
  const ceil = (fiat: string) => (toUnits(fiat, minor) * rate + 10n ** BigInt(minor) - 1n) / 10n ** BigInt(minor);
  const total = ceil(payment.amount);
  const service = ceil(payment.serviceFee);
  Object.assign(payment, {
    status: 'PROCESSING',
    chainId,
    token,
    exchangeRate: formatUnits(rate, 6),
    amountToken: formatUnits(total, 6),
    serviceFeeToken: formatUnits(service, 6),
    merchantFeeToken: formatUnits(payment.sellers ? 0n : total - service, 6),
    updatedAt: now,
  });
}

const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());

/** `payUrl`: where the hosted page is served ({pay_url}). */
export function createView(p: Payment, payUrl: string): Record<string, unknown> {
  return {
    id: p.id,
    status: p.status,
    amount: p.amount,
    currency: p.currency,
    title: p.title,
    externalId: p.externalId,
    acceptedChains: p.acceptedChains,
    acceptedTokens: p.acceptedTokens,
    serviceFee: p.serviceFee,
    merchantFee: p.merchantFee,
    sellers: p.sellers,
    paymentUrl: `${payUrl}/p/${p.id}`,
    expiresAt: iso(p.expiresAt),
    createdAt: iso(p.createdAt),
  };
}

export function retrieveView(p: Payment, payUrl: string): Record<string, unknown> {
  return {
    ...createView(p, payUrl),
    chainId: p.chainId,
    token: p.token,
    exchangeRate: p.exchangeRate,
    amountToken: p.amountToken,
    serviceFeeToken: p.serviceFeeToken,
    merchantFeeToken: p.merchantFeeToken,
    gasActual: p.gasActual,
    txHash: p.txHash,
    error: p.error,
    paidAt: iso(p.paidAt),
    updatedAt: iso(p.updatedAt),
  };
}

export const LIVE = new Set(['ACTIVE', 'PROCESSING', 'SUCCESSFUL']);
