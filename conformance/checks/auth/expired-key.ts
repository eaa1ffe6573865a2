// A key that worked until its expiry is refused once the implementation's clock passes it.
import type { CheckContext } from '../../context.ts';
import { defineCheck } from '../../registry.ts';
import { expectRefusedEverywhere } from './refused-everywhere.ts';
import { runCredential } from '../../support/run-credential.ts';

export const expiredKey = defineCheck({
  id: 'auth.expired-key',
  title: 'An API key past its expiry is refused with 401 (clock advanced past expiresAt; black-box: a 30-day key, 30 days later)',
  requirements: ['AUTH-401-MISSING-INVALID', 'AUTH-KEY-IP-WHITELIST-EXPIRY'],
  level: 'documented',
  needs: [],
  tags: ['security', 'clock'],
  async run(ctx: CheckContext) {
    if (!ctx.services.control) return expiresAfterThirtyDays(ctx);
    const now = await ctx.clock.refresh();
    const issued = await ctx.control.createApiKey(runCredential(ctx), { expiresAt: new Date(now + 120_000).toISOString() });
    const credential = { key: issued.key, label: 'EXPIRED_API_KEY' };
    ctx.services.secrets.add(issued.key, 'EXPIRED_API_KEY');
    const works = await ctx.api.request({ method: 'GET', path: '/v1/payments', auth: credential });
    ctx.requireStatus(works, 200, 'AUTH-KEY-IP-WHITELIST-EXPIRY', 'A key must work before its expiry');
    await ctx.advanceClock(180_000);
    await ctx.clock.refresh();
    await expectRefusedEverywhere(ctx, credential, 'AUTH-401-MISSING-INVALID', 'an expired key');
  },
});

/** Without a control API: the shortest expiry the public API allows (30 days), then the clock moved past it. */
async function expiresAfterThirtyDays(ctx: CheckContext): Promise<void> {
  if (!ctx.canMoveClock)
    ctx.notExercised(
      'no control API and no clock the suite can move (a black-box run with --target-command/--target-image and libfaketime moves it)',
    );
  const created = await ctx.api.post('/v1/auth/api-keys', { name: 'conformance expiry after 30 days', expiresInDays: 30 });
  ctx.requireStatus(created, 201, 'AUTH-KEY-IP-WHITELIST-EXPIRY', 'Setup: create a key that expires in 30 days');
  const record = created.json as { id?: string; key?: string };
  ctx.require(
    typeof record.key === 'string',
    'AUTH-KEY-IP-WHITELIST-EXPIRY',
    'Setup: the created key is not shown',
    'no key in the response',
    created.exchange,
  );
  ctx.services.secrets.add(record.key, 'EXPIRED_API_KEY');
  ctx.onCleanup(async () => void (await ctx.api.delete(`/v1/auth/api-keys/${record.id}`)));
  const credential = { key: record.key, label: 'EXPIRED_API_KEY' };
  const works = await ctx.api.request({ method: 'GET', path: '/v1/payments', auth: credential });
  ctx.requireStatus(works, 200, 'AUTH-KEY-IP-WHITELIST-EXPIRY', 'A key must work before its expiry');
  await ctx.advanceClock(30 * 86_400_000 + 180_000);
  await ctx.clock.refresh();
  await expectRefusedEverywhere(ctx, credential, 'AUTH-401-MISSING-INVALID', 'a key 30 days past its creation (expiresInDays 30)');
}
