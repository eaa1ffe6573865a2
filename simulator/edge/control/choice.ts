// Bodies of the control API's customer and payer actions: a (chain, token) choice and a failure.
import type { TokenSymbol } from '@stablepay/contract/chain-table';
import { CHAIN_IDS, isToken, TOKENS } from '@stablepay/contract/chain-table';
import type { ErrorSource, PaymentError } from '../../core/payments/types.ts';
import { ERROR_SOURCES } from '../../core/payments/types.ts';
import { objectBody, Problems, rejectUnknownFields } from '../../core/validation/index.ts';

export function parseChoice(body: unknown): { chainId: number; token: TokenSymbol } {
  const problems = new Problems();
  const input = objectBody(body, 'Request body must be a JSON object with chainId and token');
  rejectUnknownFields(input, ['chainId', 'token'], problems);
  if (typeof input.chainId !== 'number' || !CHAIN_IDS.includes(input.chainId))
    problems.add(['chainId'], `chainId must be one of ${CHAIN_IDS.join(', ')}`);
  if (!isToken(input.token)) problems.add(['token'], `token must be one of ${TOKENS.join(', ')}`);
  problems.throwIfAny();
  return { chainId: input.chainId as number, token: input.token as TokenSymbol };
}

const DEFAULT_FAILURES: Record<ErrorSource, { code: string; message: string }> = {
  chain: { code: 'TRANSACTION_REVERTED', message: 'The transaction reverted on-chain' },
  bundler: { code: 'USER_OPERATION_REJECTED', message: 'The bundler rejected the user operation' },
  service: { code: 'SERVICE_ERROR', message: 'The service could not settle the payment' },
};

/** The failure to record; fields left out take the defaults of `defaultSource` (a chain revert unless told). */
export function parseFailure(body: unknown, defaultSource: ErrorSource = 'chain'): PaymentError {
  const problems = new Problems();
  const input = objectBody(body);
  rejectUnknownFields(input, ['code', 'source', 'message'], problems);
  if (input.source !== undefined && !ERROR_SOURCES.includes(input.source as ErrorSource))
    problems.add(['source'], `source must be one of ${ERROR_SOURCES.join(', ')}`);
  if (input.code !== undefined && (typeof input.code !== 'string' || input.code.length === 0 || input.code.length > 100))
    problems.add(['code'], 'code must be a string of 1 to 100 characters');
  if (input.message !== undefined && (typeof input.message !== 'string' || input.message.length > 500))
    problems.add(['message'], 'message must be a string of at most 500 characters');
  problems.throwIfAny();
  const source = (input.source as ErrorSource | undefined) ?? defaultSource;
  const fallback = DEFAULT_FAILURES[source];
  return {
    code: (input.code as string | undefined) ?? fallback.code,
    source,
    message: (input.message as string | undefined) ?? fallback.message,
  };
}
