// A key that worked until its expiry is refused once the implementation's clock passes it.
import type { CheckContext } from '../../context.ts';
import { defineCheck } from '../../registry.ts';
import { expectRefusedEverywhere } from './refused-everywhere.ts';
import { runCredential } from '../../support/run-credential.ts';

export const expiredKey = defineCheck({
  id: 'auth.expired-key',
  title: 'An API key past its expiry is refused with 401 (clock advanced past expiresAt)',
  requirements: ['AUTH-401-MISSING-INVALID', 'AUTH-KEY-IP-WHITELIST-EXPIRY'],
  level: 'documented',
  needs: ['control'],
  tags: ['security', 'clock'],
  async run(ctx: CheckContext) {
    const now = await ctx.clock.refresh();
    const issued = await ctx.control.createApiKey(runCredential(ctx), { expiresAt: new Date(now + 120_000).toISOString() });
    const credential = { key: issued.key, label: 'EXPIRED_API_KEY' };
    ctx.services.secrets.add(issued.key, 'EXPIRED_API_KEY');
    const works = await ctx.api.request({ method: 'GET', path: '/v1/payments', auth: credential });
    ctx.requireStatus(works, 200, 'AUTH-KEY-IP-WHITELIST-EXPIRY', 'A key must work before its expiry');
    await ctx.control.advance(180_000);
    await ctx.clock.refresh();
    await expectRefusedEverywhere(ctx, credential, 'AUTH-401-MISSING-INVALID', 'an expired key');
  },
});
