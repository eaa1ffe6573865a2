// Field invariants over a payment's whole life, asserted on every observation a lifecycle check or
// the model makes (create response, GET, DELETE response, list item). Each observation is compared
// with the previous one of the same payment by the lifetimes of field-lifetimes.ts; nothing here is
// per check. Token-amount identities (assumed) are checked on every initiated observation.
import { currency } from '../facts/fixtures.ts';
import { isDecimalString, parseDecimal, toUnits } from '../facts/decimal.ts';
import { TERMINAL, type CreateBody, type Payment } from '../support/payments.ts';
import {
  DECIMAL_FIELDS,
  FIELD_LIFETIMES,
  FORWARD_ONLY_REQUIREMENT,
  INSTANT_FIELDS,
  TERMINAL_REQUIREMENT,
  TOKEN_IDENTITY_REQUIREMENTS,
  UNORDERED_FIELDS,
  fieldRequirement,
  type PaymentField,
} from './field-lifetimes.ts';
import type { ViewViolation } from './view-rules.ts';

/**
 * How far our estimate of the service's clock at a request may be off (the skew is measured from
 * a control-API round trip). A change seen after a read must carry an updatedAt no earlier than
 * that read, less this margin.
 */
export const CLOCK_MARGIN_MS = 250;

interface Seen {
  payment: Record<string, unknown>;
  /** Service time (estimate) at which the request that produced this observation started. */
  readAt: number;
}

const TOKEN_SCALE = 6;

function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value && typeof value === 'object') {
    return `{${Object.keys(value)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${canonical((value as Record<string, unknown>)[k])}`)
      .join(',')}}`;
  }
  return JSON.stringify(value ?? null);
}

/** Whether two observations of one field hold the same value, by the field's kind. */
export function sameValue(field: PaymentField, a: unknown, b: unknown): boolean {
  if (a === null || b === null || a === undefined || b === undefined) return (a ?? null) === (b ?? null);
  if (DECIMAL_FIELDS.has(field) && isDecimalString(a) && isDecimalString(b)) {
    const x = parseDecimal(a);
    const y = parseDecimal(b);
    const scale = Math.max(x.scale, y.scale);
    return x.units * 10n ** BigInt(scale - x.scale) === y.units * 10n ** BigInt(scale - y.scale);
  }
  if (INSTANT_FIELDS.has(field) && typeof a === 'string' && typeof b === 'string') return Date.parse(a) === Date.parse(b);
  if (UNORDERED_FIELDS.has(field) && Array.isArray(a) && Array.isArray(b))
    return canonical([...a].map(canonical).sort()) === canonical([...b].map(canonical).sort());
  return canonical(a) === canonical(b);
}

const show = (value: unknown): string => JSON.stringify(value);

/** ceil(a / b), a >= 0, b > 0. */
const divCeil = (a: bigint, b: bigint): bigint => (a + b - 1n) / b;

/** Assumed identities between the fiat amounts, the locked rate and the token amounts. */
export function tokenIdentityViolations(payment: Payment): ViewViolation[] {
  const { exchangeRate, amountToken, serviceFeeToken, merchantFeeToken } = payment;
  if (![exchangeRate, amountToken, serviceFeeToken, merchantFeeToken, payment.amount, payment.serviceFee].every(isDecimalString)) return [];
  let minor: number;
  try {
    minor = currency(payment.currency).minorUnits;
  } catch {
    return [];
  }
  const out: ViewViolation[] = [];
  try {
    const rate = toUnits(exchangeRate!, TOKEN_SCALE);
    const ceilToken = (fiat: string): bigint => divCeil(toUnits(fiat, minor) * rate, 10n ** BigInt(minor));
    const total = toUnits(amountToken!, TOKEN_SCALE);
    const service = toUnits(serviceFeeToken!, TOKEN_SCALE);
    const merchant = toUnits(merchantFeeToken!, TOKEN_SCALE);
    if (total !== ceilToken(payment.amount))
      out.push({
        requirement: 'PAY-TOKEN-AMOUNT-CEIL',
        message: `amountToken ${amountToken} is not ceil6(amount ${payment.amount} × exchangeRate ${exchangeRate})`,
      });
    if (service !== ceilToken(payment.serviceFee))
      out.push({
        requirement: 'PAY-TOKEN-AMOUNT-CEIL',
        message: `serviceFeeToken ${serviceFeeToken} is not ceil6(serviceFee ${payment.serviceFee} × exchangeRate ${exchangeRate})`,
      });
    // Sellers' token amounts are not in the view: with sellers the merchant's part can only be bounded.
    const rest = total - service;
    const sellers = (payment.sellers ?? []).length > 0;
    if (sellers ? merchant > rest || merchant < 0n : merchant !== rest) {
      out.push({
        requirement: 'PAY-MERCHANT-FEE-TOKEN-REMAINDER',
        message: `merchantFeeToken ${merchantFeeToken} is not amountToken ${amountToken} − serviceFeeToken ${serviceFeeToken}${sellers ? " − the sellers' token amounts" : ''}`,
      });
    }
  } catch (error) {
    out.push({ requirement: 'PAY-TOKEN-AMOUNT-CEIL', message: `token amounts are not 6-decimal values: ${(error as Error).message}` });
  }
  return out;
}

/** Remembers the last observation of every payment and judges each new one against it. */
export class PaymentTracker {
  private readonly seen = new Map<string, Seen>();
  private readonly requests = new Map<string, CreateBody>();
  /** Every requirement an observation so far was judged against (whether it held or not). */
  readonly judged = new Set<string>();

  /** The body a payment was created from: acceptedChains/acceptedTokens must stay as requested. */
  created(id: string, request: CreateBody): void {
    this.requests.set(id, request);
  }

  /**
   * Judges one observation of a payment (any view). `readAt` is the service time at which the
   * request producing it started. Returns every broken invariant, documented ones first.
   */
  observe(payment: Payment, readAt: number): ViewViolation[] {
    if (!payment || typeof payment.id !== 'string') return [];
    const now = payment as unknown as Record<string, unknown>;
    const out: ViewViolation[] = [];
    const request = this.requests.get(payment.id);
    for (const field of ['acceptedChains', 'acceptedTokens'] as const) {
      const asked = request?.[field];
      if (asked !== undefined && field in now) this.judged.add(fieldRequirement(field));
      if (asked !== undefined && field in now && !sameValue(field, asked, now[field])) {
        out.push({ requirement: fieldRequirement(field), message: `${field} ${show(now[field])} is not as requested (${show(asked)})` });
      }
    }
    if (typeof now.updatedAt === 'string' && typeof now.createdAt === 'string' && Date.parse(now.updatedAt) < Date.parse(now.createdAt)) {
      out.push({ requirement: fieldRequirement('updatedAt'), message: `updatedAt ${now.updatedAt} is before createdAt ${now.createdAt}` });
    }
    // Completion is an update of the payment, after its creation (spec §2: paidAt "completion time").
    if (typeof now.paidAt === 'string') {
      const paidAt = Date.parse(now.paidAt);
      if (typeof now.createdAt === 'string' && paidAt < Date.parse(now.createdAt))
        out.push({ requirement: fieldRequirement('paidAt'), message: `paidAt ${now.paidAt} is before createdAt ${now.createdAt}` });
      if (typeof now.updatedAt === 'string' && Date.parse(now.updatedAt) < paidAt)
        out.push({ requirement: fieldRequirement('updatedAt'), message: `updatedAt ${now.updatedAt} is before paidAt ${now.paidAt}` });
    }
    const previous = this.seen.get(payment.id);
    if (previous) out.push(...this.compare(previous, now, readAt));
    this.seen.set(payment.id, { payment: { ...(previous?.payment ?? {}), ...now }, readAt });
    if (payment.status !== 'ACTIVE' && isDecimalString(payment.amountToken)) {
      out.push(...tokenIdentityViolations(payment));
      for (const requirement of TOKEN_IDENTITY_REQUIREMENTS) this.judged.add(requirement);
    }
    return out;
  }

  private compare(previous: Seen, now: Record<string, unknown>, _readAt: number): ViewViolation[] {
    const before = previous.payment;
    const out: ViewViolation[] = [];
    const common = (Object.keys(FIELD_LIFETIMES) as PaymentField[]).filter((f) => f in before && f in now && f !== 'updatedAt');
    for (const field of common) if (FIELD_LIFETIMES[field] !== 'transition') this.judged.add(fieldRequirement(field));
    const changed = common.filter((f) => !sameValue(f, before[f], now[f]));
    // Forward only (spec §3): ACTIVE, then PROCESSING, then an outcome; never back to an earlier rank.
    const rank = (status: unknown) => (status === 'ACTIVE' ? 0 : status === 'PROCESSING' ? 1 : TERMINAL.includes(status as never) ? 2 : -1);
    if ('status' in before && 'status' in now && rank(before.status) >= 0 && rank(now.status) >= 0) {
      this.judged.add(FORWARD_ONLY_REQUIREMENT);
      if (rank(now.status) < rank(before.status))
        out.push({
          requirement: FORWARD_ONLY_REQUIREMENT,
          message: `status went back from ${String(before.status)} to ${String(now.status)}`,
        });
    }
    for (const field of changed) {
      const lifetime = FIELD_LIFETIMES[field];
      const message = `${field} changed from ${show(before[field])} to ${show(now[field])} (status ${String(before.status)} -> ${String(now.status)})`;
      if (lifetime === 'fixed')
        out.push({ requirement: fieldRequirement(field), message: `${message}; it is fixed for the payment's lifetime` });
      if (lifetime === 'set-once' && before[field] !== null && before[field] !== undefined)
        out.push({ requirement: fieldRequirement(field), message: `${message}; once set it must not change` });
    }
    // updatedAt: the create view has none; there the creation time stands for the last update.
    const lastBefore = typeof before.updatedAt === 'string' ? Date.parse(before.updatedAt) : Date.parse(String(before.createdAt));
    if (typeof now.updatedAt === 'string' && Number.isFinite(lastBefore)) {
      const lastNow = Date.parse(now.updatedAt);
      const requirement = fieldRequirement('updatedAt');
      this.judged.add(requirement);
      if (changed.length === 0 && typeof before.updatedAt === 'string' && lastNow !== lastBefore) {
        out.push({ requirement, message: `updatedAt moved from ${before.updatedAt} to ${now.updatedAt} although no field changed` });
      } else if (changed.length > 0 && lastNow < lastBefore) {
        out.push({
          requirement,
          message: `updatedAt went back from ${new Date(lastBefore).toISOString()} to ${now.updatedAt} while ${changed.join(', ')} changed`,
        });
      } else if (changed.length > 0 && lastNow < previous.readAt - CLOCK_MARGIN_MS) {
        // The change happened after our previous read began, so the last update time cannot be earlier.
        out.push({
          requirement,
          message: `updatedAt ${now.updatedAt} did not move forward although ${changed.join(', ')} changed after the previous read at ${new Date(previous.readAt).toISOString()}`,
        });
      }
    }
    if (TERMINAL.includes(before.status as never)) {
      this.judged.add(TERMINAL_REQUIREMENT);
      const any = [
        ...changed,
        ...(typeof before.updatedAt === 'string' &&
        typeof now.updatedAt === 'string' &&
        !sameValue('updatedAt', before.updatedAt, now.updatedAt)
          ? ['updatedAt']
          : []),
      ];
      if (any.length)
        out.push({ requirement: TERMINAL_REQUIREMENT, message: `a ${String(before.status)} payment changed: ${any.join(', ')}` });
    }
    return out;
  }
}
