// One contract for every AsyncPaymentRepository (in memory, PGlite): the same tests, so the engines cannot drift.
// Each test works on merchants of its own, so one store serves the whole file.
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { AsyncPaymentRepository } from '../core/payments/async-payment-repository.ts';
import type { Payment, PaymentStatus } from '../core/payments/types.ts';

export function payment(merchantId: string, fields: Partial<Payment> = {}): Payment {
  const createdAt = fields.createdAt ?? 1_800_000_000_000;
  return {
    id: randomUUID(),
    merchantId,
    origin: 'api',
    status: 'ACTIVE',
    amount: '100.5',
    currency: 'USD',
    title: null,
    externalId: null,
    acceptedChains: [8453, 137],
    acceptedTokens: ['USDC'],
    serviceFee: '0.50',
    merchantFee: '0.00',
    sellers: null,
    chainId: null,
    token: null,
    exchangeRate: null,
    amountToken: null,
    serviceFeeToken: null,
    merchantFeeToken: null,
    sellersToken: null,
    settlementTransfers: null,
    gasActual: null,
    txHash: null,
    error: null,
    expiresAt: createdAt + 3_600_000,
    paidAt: null,
    createdAt,
    updatedAt: createdAt,
    ...fields,
  };
}

const moved = (from: Payment, status: PaymentStatus, at = from.updatedAt + 1): Payment => ({ ...from, status, updatedAt: at });

async function walk(
  repo: AsyncPaymentRepository,
  merchantId: string,
  filter: { status?: PaymentStatus; externalId?: string },
  limit: number,
) {
  const seen: string[] = [];
  let cursor: string | undefined;
  for (;;) {
    const page = await repo.list(merchantId, { ...filter, cursor, limit });
    if (!page) throw new Error('cursor refused');
    seen.push(...page.items.map((p) => p.id));
    if (!page.hasMore) return seen;
    cursor = page.items.at(-1)?.id;
  }
}

/** Newest first, as every engine orders: createdAt desc, then id desc (bytewise). */
const newestFirst = (a: Payment, b: Payment): number => b.createdAt - a.createdAt || (a.id < b.id ? 1 : a.id > b.id ? -1 : 0);

export function paymentRepositoryContract(engine: string, repo: () => AsyncPaymentRepository): void {
  describe(`payment repository contract: ${engine}`, () => {
    it('gives back what it stored, whole, and another merchant does not see it', async () => {
      const m = randomUUID();
      const p = payment(m, { sellers: [{ address: '0x52908400098527886E0F7030069857D2E4169EE7', amount: '10.00' }], title: 'Ünïcode ✓' });
      expect(await repo().insert(p)).toEqual({ ok: true });
      expect(await repo().get(p.id)).toEqual(p);
      expect(await repo().getOwned(m, p.id)).toEqual(p);
      expect(await repo().getOwned(randomUUID(), p.id)).toBeUndefined();
      expect(await repo().get(randomUUID())).toBeUndefined();
      await expect(repo().insert(p)).rejects.toThrow(/duplicate id/);
    });

    it('a live externalId has one holder; leaving the live statuses frees it; other merchants are apart', async () => {
      const m = randomUUID();
      const first = payment(m, { externalId: 'order-1' });
      expect(await repo().insert(first)).toEqual({ ok: true });
      expect(await repo().insert(payment(m, { externalId: 'order-1' }))).toEqual({ ok: false, holder: first.id });
      expect(await repo().insert(payment(randomUUID(), { externalId: 'order-1' }))).toEqual({ ok: true });
      // A payment that is not live does not hold it.
      expect(await repo().insert(payment(m, { externalId: 'order-2', status: 'EXPIRED' }))).toEqual({ ok: true });
      expect(await repo().insert(payment(m, { externalId: 'order-2' }))).toEqual({ ok: true });
      expect(await repo().replace(first, moved(first, 'CANCELLED'))).toBe(true);
      expect(await repo().insert(payment(m, { externalId: 'order-1' }))).toEqual({ ok: true });
    });

    it('25 creates with one externalId at once: exactly one is stored, the others name it', async () => {
      const m = randomUUID();
      const burst = Array.from({ length: 25 }, () => payment(m, { externalId: 'burst' }));
      const results = await Promise.all(burst.map((p) => repo().insert(p)));
      const winners = burst.filter((_, i) => results[i]?.ok);
      expect(winners).toHaveLength(1);
      for (const result of results) if (!result.ok) expect(result.holder).toBe(winners[0]?.id);
      expect(await walk(repo(), m, {}, 100)).toEqual([winners[0]?.id]);
    });

    it('of transitions racing from one version exactly one lands; a stale or backward one never does', async () => {
      const m = randomUUID();
      const p = payment(m);
      await repo().insert(p);
      const contenders = [moved(p, 'PROCESSING'), moved(p, 'CANCELLED'), moved(p, 'EXPIRED'), moved(p, 'PROCESSING', p.updatedAt + 2)];
      const landed = await Promise.all(contenders.map((next) => repo().replace(p, next)));
      expect(landed.filter(Boolean)).toHaveLength(1);
      const winner = contenders[landed.indexOf(true)] as Payment;
      expect(await repo().get(p.id)).toEqual(winner);
      // From the stale version: refused, nothing changed.
      expect(await repo().replace(p, moved(p, 'FAILED'))).toBe(false);
      expect(await repo().get(p.id)).toEqual(winner);
      // Backward, even from the current version: refused.
      const q = payment(m);
      await repo().insert(q);
      const processing = moved(q, 'PROCESSING');
      expect(await repo().replace(q, processing)).toBe(true);
      expect(await repo().replace(processing, moved(processing, 'ACTIVE'))).toBe(false);
      // Forward from the current version, and a change within one status: both land.
      const settled = moved(processing, 'SUCCESSFUL');
      expect(await repo().replace(processing, settled)).toBe(true);
      expect(await repo().replace(settled, { ...settled, gasActual: '0.01', updatedAt: settled.updatedAt + 1 })).toBe(true);
      expect(await repo().replace(settled, moved(settled, 'SUCCESSFUL', settled.updatedAt + 5))).toBe(false);
    });

    it('pages newest first (ties by id) with filters and a cursor; a foreign cursor is refused', async () => {
      const m = randomUUID();
      const made: Payment[] = [];
      for (let i = 0; i < 23; i += 1) {
        const p = payment(m, {
          createdAt: 1_800_000_000_000 + (i % 5),
          // The EXPIRED ones and, last, one live holder.
          externalId: i % 4 === 0 || i === 22 ? 'x' : null,
          status: i % 4 === 0 ? 'EXPIRED' : 'ACTIVE',
        });
        made.push(p);
        expect((await repo().insert(p)).ok).toBe(true);
      }
      const expected = (keep: (p: Payment) => boolean) =>
        made
          .filter(keep)
          .sort(newestFirst)
          .map((p) => p.id);
      expect(await walk(repo(), m, {}, 4)).toEqual(expected(() => true));
      expect(await walk(repo(), m, { status: 'EXPIRED' }, 2)).toEqual(expected((p) => p.status === 'EXPIRED'));
      expect(await walk(repo(), m, { externalId: 'x' }, 3)).toEqual(expected((p) => p.externalId === 'x'));
      expect(await walk(repo(), m, { externalId: 'x', status: 'ACTIVE' }, 1)).toEqual(
        expected((p) => p.externalId === 'x' && p.status === 'ACTIVE'),
      );
      const other = payment(randomUUID());
      await repo().insert(other);
      expect(await repo().list(m, { cursor: other.id, limit: 5 })).toBeUndefined();
      expect(await repo().list(randomUUID(), { limit: 5 })).toEqual({ items: [], hasMore: false });
    });

    it('walks every payment of a merchant newest first, within a time range, past one read page', async () => {
      const m = randomUUID();
      const made = Array.from({ length: 620 }, (_, i) => payment(m, { createdAt: 1_800_000_000_000 + Math.floor(i / 3) }));
      for (const p of made) await repo().insert(p);
      const ids = async (range?: { from: number; to: number }) => {
        const seen: string[] = [];
        for await (const p of repo().all(m, range)) seen.push(p.id);
        return seen;
      };
      expect(await ids()).toEqual([...made].sort(newestFirst).map((p) => p.id));
      const range = { from: 1_800_000_000_010, to: 1_800_000_000_020 };
      expect(await ids(range)).toEqual(
        made
          .filter((p) => p.createdAt >= range.from && p.createdAt <= range.to)
          .sort(newestFirst)
          .map((p) => p.id),
      );
    });

    it("forget removes every payment of one merchant and frees its externalIds; another merchant's stay", async () => {
      const m = randomUUID();
      const keep = payment(randomUUID(), { externalId: 'k' });
      await repo().insert(keep);
      const gone = [payment(m, { externalId: 'k' }), payment(m), payment(m, { status: 'SUCCESSFUL' })];
      for (const p of gone) await repo().insert(p);
      expect(new Set(await repo().forget(m))).toEqual(new Set(gone.map((p) => p.id)));
      expect(await repo().get(gone[0]!.id)).toBeUndefined();
      expect(await repo().list(m, { limit: 10 })).toEqual({ items: [], hasMore: false });
      expect(await repo().insert(payment(m, { externalId: 'k' }))).toEqual({ ok: true });
      expect(await repo().get(keep.id)).toEqual(keep);
      expect(await repo().forget(randomUUID())).toEqual([]);
    });
  });
}
