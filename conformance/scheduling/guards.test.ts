import { describe, expect, it } from 'vitest';
import { RequestScope, requireExclusive, runInScope, type Exclusive } from '../http/request-scope.ts';
import { controlGuard, mainEndpointGuard } from './guards.ts';

const inCheck = <T>(claims: Exclusive, fn: () => Promise<T>) =>
  runInScope(new RequestScope('unit.check', new AbortController().signal, claims), fn);
const plain: Exclusive = { exclusive: new Set(), browserSlots: 0 };

describe('acts that need a resource alone', () => {
  it('are refused to a check that did not declare them, with the declaration to add', async () => {
    await expect(inCheck(plain, () => requireExclusive('clock', 'moved the clock'))).rejects.toThrow(
      "check unit.check moved the clock without declaring it: add resources: { exclusive: ['clock'] } to its definition",
    );
    await expect(inCheck(plain, () => controlGuard({ method: 'POST', path: '/clock/advance', credential: null }))).rejects.toThrow(
      /moved the clock \(POST \/clock\/advance\)/,
    );
    // The run's own test clock is every run merchant's clock: moving it is moving the clock.
    await expect(
      inCheck(plain, () => controlGuard({ method: 'POST', path: '/clocks/clk_0123456789abcdef01234567/advance', credential: null })),
    ).rejects.toThrow(/moved the clock/);
    await inCheck(plain, () => controlGuard({ method: 'GET', path: '/clocks/clk_0123456789abcdef01234567', credential: null }));
    await expect(inCheck(plain, () => controlGuard({ method: 'PUT', path: '/rate-limit', credential: null }))).rejects.toThrow(
      /rate-limit-window/,
    );
    // Reading the clock, or acting outside any check (setup), is fine.
    await inCheck(plain, () => controlGuard({ method: 'GET', path: '/clock', credential: null }));
    await requireExclusive('clock', 'moved the clock');
  });

  it("guard the main merchant's endpoint, not another merchant's", async () => {
    const guard = mainEndpointGuard(() => 'pk_main');
    const main = { key: 'pk_main', label: 'MAIN' };
    await expect(inCheck(plain, () => guard({ method: 'PUT', path: '/v1/webhooks', credential: main }))).rejects.toThrow(
      /main-webhook-endpoint/,
    );
    await expect(inCheck(plain, () => guard({ method: 'POST', path: '/v1/webhooks/regenerate-secret', credential: main }))).rejects.toThrow(
      /main-webhook-endpoint/,
    );
    await inCheck(plain, () => guard({ method: 'PUT', path: '/v1/webhooks', credential: { key: 'pk_other', label: 'OTHER' } }));
    await inCheck(plain, () => guard({ method: 'GET', path: '/v1/webhooks', credential: main }));
    await inCheck({ exclusive: new Set(['main-webhook-endpoint']), browserSlots: 0 }, () =>
      guard({ method: 'PUT', path: '/v1/webhooks', credential: main }),
    );
  });

  it('let a check move the test clock made for it alone, and no other', async () => {
    const own: Exclusive = { exclusive: new Set(), browserSlots: 0, ownClockId: 'clk_aaaaaaaaaaaaaaaaaaaaaaaa' };
    await inCheck(own, () => controlGuard({ method: 'POST', path: '/clocks/clk_aaaaaaaaaaaaaaaaaaaaaaaa/advance', credential: null }));
    await expect(
      inCheck(own, () => controlGuard({ method: 'POST', path: '/clocks/clk_bbbbbbbbbbbbbbbbbbbbbbbb/advance', credential: null })),
    ).rejects.toThrow(/moved the clock/);
    await expect(inCheck(own, () => controlGuard({ method: 'POST', path: '/clock/advance', credential: null }))).rejects.toThrow(
      /moved the clock/,
    );
  });

  it('refuse any request to a reader of the recorded traffic (readers run side by side and would see it)', async () => {
    const reader: Exclusive = { exclusive: new Set(['recorded-traffic']), browserSlots: 0 };
    await expect(inCheck(reader, () => controlGuard({ method: 'GET', path: '/clock', credential: null }))).rejects.toThrow(
      /sent GET \/clock while reading the run's recorded traffic/,
    );
    await expect(
      inCheck(reader, () => mainEndpointGuard(() => 'pk_main')({ method: 'GET', path: '/v1/payments', credential: null })),
    ).rejects.toThrow(/recorded traffic/);
  });

  it('wait for the exclusive phase of a check that declared the act for its first move', async () => {
    let entered = false;
    const mover: Exclusive = {
      exclusive: new Set(),
      onFirstAct: new Set(['clock']),
      enterExclusive: async () => void (entered = true),
      browserSlots: 0,
    };
    await inCheck(mover, () => requireExclusive('clock', 'moved the clock'));
    expect(entered).toBe(true);
  });
});
