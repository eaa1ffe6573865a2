// A key that worked, then was revoked through DELETE /v1/auth/api-keys/{id}, gets 401. The key is created with the
// body the run established for a plain key (premise api-keys.create-body), read from the established fields.
import type { CheckContext } from '../../context.ts';
import { defineCheck } from '../../registry.ts';
import { createKey } from '../../support/api-keys.ts';
import { expectRefusedEverywhere } from './refused-everywhere.ts';
import { runCredential } from '../../support/run-credential.ts';

async function issueKey(ctx: CheckContext): Promise<{ id: string; key: string; label: string }> {
  const created = await createKey(ctx, ctx.api, 'plain', { name: 'conformance revoked-key probe' }, 'REVOKED_API_KEY');
  if (created.key !== undefined && created.id !== undefined) return { id: created.id, key: created.key, label: 'REVOKED_API_KEY' };
  if (!ctx.services.control)
    ctx.notExercised(
      `POST /v1/auth/api-keys answered ${created.response.status} without a key and an id the run could read, and there is no control API to issue a key`,
    );
  return ctx.control.createApiKey(runCredential(ctx), {});
}

export const revokedKey = defineCheck({
  id: 'auth.revoked-key',
  title: 'A revoked API key is refused with 401 on every operation',
  requirements: ['AUTH-401-MISSING-INVALID', 'ERR-401-ALL', 'KEY-REVOKE-ENDPOINT'],
  level: 'documented',
  needs: [],
  tags: ['security'],
  premises: ['api-keys.create-body', 'api-keys.secret-field', 'api-keys.id-field', 'payments.minimum-amounts'],
  async run(ctx: CheckContext) {
    const issued = await issueKey(ctx);
    const credential = { key: issued.key, label: issued.label };
    const works = await ctx.api.request({ method: 'GET', path: '/v1/payments', auth: credential });
    ctx.requireStatus(works, 200, 'KEY-REVOKE-ENDPOINT', 'Setup: a newly issued key must work before it is revoked');
    // The status of a revoke is not shown: any 2xx revokes.
    const revoke = await ctx.api.delete(`/v1/auth/api-keys/${issued.id}`);
    ctx.require(
      revoke.status >= 200 && revoke.status < 300,
      'KEY-REVOKE-ENDPOINT',
      'DELETE /v1/auth/api-keys/{id} does not revoke the key',
      () => `answered ${revoke.status}: ${revoke.text.slice(0, 300)}`,
      revoke.exchange,
    );
    await expectRefusedEverywhere(ctx, credential, 'AUTH-401-MISSING-INVALID', 'a revoked key', ['ERR-401-ALL', 'KEY-REVOKE-ENDPOINT']);
  },
});
