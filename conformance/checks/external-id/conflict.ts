// Shared assertion: a create refused for a live externalId is 409 with the documented error body.
import type { ErrorBody } from '@stablepay/contract/types';
import type { CheckContext } from '../../context.ts';
import type { HttpResponse } from '../../http/client.ts';
import type { Received } from '../../received.ts';

export function expectConflict(ctx: CheckContext, response: HttpResponse, requirement: string, situation: string): boolean {
  // A 409 for the live externalId is the uniqueness rule at work.
  if (ctx.check.requirements.includes('PAY-CREATE-EXTERNAL-ID-UNIQUE-LIVE')) ctx.judged('PAY-CREATE-EXTERNAL-ID-UNIQUE-LIVE');
  if (
    !ctx.expect(
      response.status === 409,
      requirement,
      `Duplicate externalId not refused with 409 (${situation})`,
      () => `expected 409, got ${response.status}: ${response.text.slice(0, 300)}`,
      response.exchange,
    )
  )
    return false;
  const body = response.json as Received<ErrorBody> | undefined;
  return ctx.expect(
    body?.statusCode === 409 && typeof body.message === 'string' && body.error === 'Conflict',
    'ERR-BODY-SHAPE',
    '409 body is not {statusCode: 409, message, error: "Conflict"}',
    () => response.text.slice(0, 300),
    response.exchange,
  );
}
