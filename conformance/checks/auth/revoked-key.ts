// A key that worked, then was revoked through DELETE /v1/auth/api-keys/{id}, gets 401.
import type { ApiKeyWithSecret } from '@stablepay/contract/types';
import type { CheckContext } from '../../context.ts';
import { defineCheck } from '../../registry.ts';
import type { Received } from '../../received.ts';
import { expectRefusedEverywhere } from './refused-everywhere.ts';
import { runCredential } from '../../support/run-credential.ts';

async function issueKey(ctx: CheckContext): Promise<{ id: string; key: string; label: string }> {
  const response = await ctx.api.post('/v1/auth/api-keys', { name: 'conformance revoked-key probe' });
  const body = response.json as Received<ApiKeyWithSecret> | undefined;
  if (response.status === 201 && typeof body?.id === 'string' && typeof body.key === 'string') {
    ctx.services.secrets.add(body.key, 'REVOKED_API_KEY');
    return { id: body.id, key: body.key, label: 'REVOKED_API_KEY' };
  }
  if (!ctx.services.control)
    ctx.notExercised(`POST /v1/auth/api-keys answered ${response.status} and there is no control API to issue a key`);
  return ctx.control.createApiKey(runCredential(ctx), {});
}

export const revokedKey = defineCheck({
  id: 'auth.revoked-key',
  title: 'A revoked API key is refused with 401 on every operation',
  requirements: ['AUTH-401-MISSING-INVALID', 'ERR-401-ALL', 'KEY-REVOKE-ENDPOINT'],
  level: 'documented',
  needs: [],
  tags: ['security'],
  async run(ctx: CheckContext) {
    const issued = await issueKey(ctx);
    const credential = { key: issued.key, label: issued.label };
    const works = await ctx.api.request({ method: 'GET', path: '/v1/payments', auth: credential });
    ctx.requireStatus(works, 200, 'KEY-REVOKE-ENDPOINT', 'Setup: a newly issued key must work before it is revoked');
    const revoke = await ctx.api.delete(`/v1/auth/api-keys/${issued.id}`);
    ctx.requireStatus(revoke, [200, 204], 'KEY-REVOKE-ENDPOINT', 'DELETE /v1/auth/api-keys/{id} does not revoke the key');
    await expectRefusedEverywhere(ctx, credential, 'AUTH-401-MISSING-INVALID', 'a revoked key');
  },
});
