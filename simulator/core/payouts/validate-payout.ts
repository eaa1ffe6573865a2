// Body of the control API's payout creation (the "dashboard" action).
import { findCurrency, CURRENCY_CODES } from '../reference-data/currencies.ts';
import { EXPIRY_MAX_MS, EXPIRY_MIN_MS, EXTERNAL_ID_PATTERN } from '../payments/validate-create.ts';
import { addressProblem, amountProblem, objectBody, parseDateTime, Problems, rejectUnknownFields } from '../validation/index.ts';
import type { PayoutDraft } from './types.ts';

export function validatePayoutInput(body: unknown, now: number): PayoutDraft {
  const problems = new Problems();
  const input = objectBody(body);
  rejectUnknownFields(input, ['amount', 'currency', 'recipientAddress', 'externalId', 'expiresAt'], problems);
  const currency = typeof input.currency === 'string' ? findCurrency(input.currency) : undefined;
  if (!currency)
    problems.add(
      ['currency'],
      input.currency === undefined ? 'currency is required' : `currency must be one of ${CURRENCY_CODES.join(', ')}`,
    );
  const amountIssue =
    input.amount === undefined ? 'amount is required' : amountProblem(input.amount, currency, { name: 'amount', floor: 'minimum' });
  if (amountIssue) problems.add(['amount'], amountIssue);
  const addressIssue = input.recipientAddress === undefined ? 'recipientAddress is required' : addressProblem(input.recipientAddress);
  if (addressIssue) problems.add(['recipientAddress'], addressIssue.replace(/^address/, 'recipientAddress'));
  if (
    input.externalId !== undefined &&
    input.externalId !== null &&
    (typeof input.externalId !== 'string' || !EXTERNAL_ID_PATTERN.test(input.externalId))
  ) {
    problems.add(['externalId'], 'externalId must be 1 to 36 letters, digits, hyphens, underscores or dots');
  }
  let expiresAt: number | undefined;
  if (input.expiresAt !== undefined) {
    const at = typeof input.expiresAt === 'string' ? parseDateTime(input.expiresAt) : undefined;
    if (at === undefined || at < now + EXPIRY_MIN_MS || at > now + EXPIRY_MAX_MS) {
      problems.add(['expiresAt'], 'expiresAt must be a date-time between 15 minutes and 30 days from now');
    } else expiresAt = at;
  }
  problems.throwIfAny();
  return {
    amount: input.amount as string,
    currency: (currency as { code: string }).code,
    recipientAddress: input.recipientAddress as string,
    externalId: (input.externalId as string | null | undefined) ?? null,
    expiresAt,
  };
}
