// Races: N creates with one new externalId sent at once. Exactly one may win (201); the others must
// be 409 — "a retried create never mints a second live payment" (spec §7).
import type { CheckContext } from '../../context.ts';
import { defineCheck } from '../../registry.ts';
import { acceptedAmount } from '../../support/amounts.ts';
import { createPayment, uniqueExternalId } from '../../support/payments.ts';
import { DEFAULTS } from '../../defaults.ts';

export const concurrentBurst = defineCheck({
  id: 'external-id.concurrent-burst',
  title: 'A concurrent burst of creates with one externalId yields exactly one 201, the rest 409',
  requirements: ['PAY-CREATE-EXTERNAL-ID-UNIQUE-LIVE', 'ERR-409-EXTERNAL-ID'],
  level: 'documented',
  needs: [],
  tags: ['external-id', 'concurrency'],
  premises: ['payments.minimum-amounts'],
  async run(ctx: CheckContext) {
    const base = Math.ceil(Number(await acceptedAmount(ctx, 'USD', '20')));
    for (let round = 0; round < 3; round++) {
      const externalId = uniqueExternalId(`burst${round}`);
      const responses = await Promise.all(
        Array.from({ length: DEFAULTS.burstSize }, (_, i) =>
          createPayment(ctx.api, { amount: `${base + i}.00`, currency: 'USD', externalId }),
        ),
      );
      ctx.addCases();
      const created = responses.filter((r) => r.status === 201);
      const conflicts = responses.filter((r) => r.status === 409);
      const other = responses.find((r) => r.status !== 201 && r.status !== 409);
      ctx.expect(
        created.length === 1,
        'PAY-CREATE-EXTERNAL-ID-UNIQUE-LIVE',
        `Burst of ${DEFAULTS.burstSize} creates minted ${created.length} live payments`,
        () => `round ${round}: statuses ${responses.map((r) => r.status).join(', ')}`,
        (created[1] ?? responses[0])!.exchange,
      );
      ctx.expect(
        conflicts.length === DEFAULTS.burstSize - 1 && !other,
        'ERR-409-EXTERNAL-ID',
        'Losers of the burst are not all 409',
        () => `round ${round}: statuses ${responses.map((r) => r.status).join(', ')}`,
        (other ?? responses[0])!.exchange,
      );
    }
  },
});
