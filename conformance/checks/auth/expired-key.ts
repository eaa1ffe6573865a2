// A key that worked until its expiry is refused once the implementation's clock passes it.
import type { CheckContext } from '../../context.ts';
import { defineCheck } from '../../registry.ts';
import { expectRefusedEverywhere } from './refused-everywhere.ts';
import { runCredential } from '../../support/run-credential.ts';
import { createKey, expiryOf } from '../../support/api-keys.ts';

export const expiredKey = defineCheck({
  id: 'auth.expired-key',
  title: 'An API key past its expiry is refused with 401 (clock advanced past expiresAt; black-box: a 30-day key, 30 days later)',
  requirements: ['AUTH-401-MISSING-INVALID', 'AUTH-KEY-IP-WHITELIST-EXPIRY'],
  level: 'documented',
  needs: [],
  tags: ['security', 'clock'],
  resources: { exclusive: ['clock'] },
  premises: ['api-keys.expiring-body', 'api-keys.secret-field', 'api-keys.id-field', 'api-keys.expiry-field', 'payments.minimum-amounts'],
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
    await expectRefusedEverywhere(ctx, credential, 'AUTH-401-MISSING-INVALID', 'an expired key', ['AUTH-KEY-IP-WHITELIST-EXPIRY']);
  },
});

/**
 * Without a control API: the shortest expiry the public API allows (30 days), created with the body the run
 * established for an expiring key (premise api-keys.expiring-body), then the clock moved past it. A key whose record
 * shows it will not expire then (no expiry, or another one) refutes that body: nothing is judged.
 */
async function expiresAfterThirtyDays(ctx: CheckContext): Promise<void> {
  if (!ctx.canMoveClock)
    ctx.notExercised(
      'no control API and no clock the suite can move (a black-box run with --target-command/--target-image and libfaketime moves it)',
    );
  const now = await ctx.clock.refresh();
  const created = await createKey(
    ctx,
    ctx.api,
    'expiring',
    { name: 'conformance expiry after 30 days', expiresInDays: 30 },
    'EXPIRED_API_KEY',
  );
  ctx.require(
    created.ok,
    'AUTH-KEY-IP-WHITELIST-EXPIRY',
    'Setup: create a key that expires in 30 days',
    () =>
      `POST /v1/auth/api-keys ${JSON.stringify(created.sent)} answered ${created.response.status}: ${created.response.text.slice(0, 300)}`,
    created.response.exchange,
  );
  ctx.require(
    created.key !== undefined && created.id !== undefined,
    'AUTH-KEY-IP-WHITELIST-EXPIRY',
    'Setup: the created key is not shown',
    'no key or id in the response (premises api-keys.secret-field, api-keys.id-field)',
    created.response.exchange,
  );
  const id = created.id;
  ctx.onCleanup(async () => void (await ctx.api.delete(`/v1/auth/api-keys/${id}`)));
  const expiry = await expiryOf(ctx, created.record);
  if (expiry === null || (expiry !== undefined && Math.abs(expiry - (now + 30 * 86_400_000)) > 3_600_000)) {
    const seen = `${created.response.status}: expiry ${expiry === null ? 'null' : new Date(expiry).toISOString()}`;
    ctx.refutePremise('api-keys.expiring-body', { sent: `POST /v1/auth/api-keys ${JSON.stringify(created.sent)}`, seen });
    ctx.notExercised(
      `the key created to expire in 30 days (${JSON.stringify(created.sent)}) shows ${seen.slice(5)}: it does not expire then, so its refusal after 30 days cannot be judged (premise api-keys.expiring-body refuted; declare apiKeys.expiringBody in the profile)`,
    );
  }
  const credential = { key: created.key, label: 'EXPIRED_API_KEY' };
  const works = await ctx.api.request({ method: 'GET', path: '/v1/payments', auth: credential });
  ctx.requireStatus(works, 200, 'AUTH-KEY-IP-WHITELIST-EXPIRY', 'A key must work before its expiry');
  await ctx.advanceClock(30 * 86_400_000 + 180_000);
  await ctx.clock.refresh();
  await expectRefusedEverywhere(
    ctx,
    credential,
    'AUTH-401-MISSING-INVALID',
    'a key 30 days past its creation, created to expire in 30 days',
    ['AUTH-KEY-IP-WHITELIST-EXPIRY'],
  );
}
