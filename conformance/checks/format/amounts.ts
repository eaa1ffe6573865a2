// Cross-cutting, fed by the recorder: every fiat and token amount in every JSON body the service
// returned is a decimal string (a JSON string such as "100.50", never a number). Amount fields are
// named after the spec's: amount, serviceFee, merchantFee, exchangeRate, gasActual and their *Token
// variants (amountToken, serviceFeeToken, merchantFeeToken), wherever they appear.
import type { CheckContext } from '../../context.ts';
import { defineCheck } from '../../registry.ts';
import { judgeRecordedBodies, type FieldProblem } from './json-fields.ts';

const AMOUNT_KEY = /^(amount|serviceFee|merchantFee|exchangeRate|gasActual)(Token)?$/;
const DECIMAL = /^-?\d+(\.\d+)?$/;

export function judgeAmount(key: string, value: unknown): FieldProblem | null {
  if (!AMOUNT_KEY.test(key) || value === null) return null;
  if (typeof value !== 'string')
    return {
      requirement: 'FMT-AMOUNT-DECIMAL-STRING',
      problem: `amount is a JSON ${Array.isArray(value) ? 'array' : typeof value}, not a decimal string`,
    };
  if (!DECIMAL.test(value))
    return { requirement: 'FMT-AMOUNT-DECIMAL-STRING', problem: 'amount string is not a plain decimal (digits, optional fraction)' };
  return null;
}

export const amountFormat = defineCheck({
  id: 'format.amounts-decimal-strings',
  title: 'Every fiat and token amount in every JSON response is a decimal string',
  requirements: ['FMT-AMOUNT-DECIMAL-STRING'],
  level: 'documented',
  needs: [],
  tags: ['cross-cutting', 'format'],
  async run(ctx: CheckContext) {
    judgeRecordedBodies(
      ctx,
      'Amount is not a decimal string',
      (key, value) => judgeAmount(key, value),
      (key, value) => (AMOUNT_KEY.test(key) && value !== null ? ['FMT-AMOUNT-DECIMAL-STRING'] : []),
    );
  },
});
