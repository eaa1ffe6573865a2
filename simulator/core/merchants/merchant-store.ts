// Merchants: the accounts API keys, payments and payouts belong to. Onboarding (sign-up,
// settlement wallet) happens in a dashboard outside the API; the control API stands in for it.
import type { Merchant as MerchantView } from '@stablepay/contract/types';
import type { Persist } from '../support/persist.ts';
import type { RandomSource } from '../support/random.ts';

export interface Merchant {
  id: string;
  name: string | null;
  /** Settlement wallet that receives the merchant's share on-chain. */
  walletAddress: string;
  /** Where the hosted page sends the customer after a successful payment (a dashboard setting). */
  redirectUrl: string | null;
  /** The test clock the merchant lives on (control API); null: a clock of its own. */
  testClock: string | null;
  createdAt: number;
}

export interface MerchantSettings {
  name?: string | null;
  walletAddress?: string;
  redirectUrl?: string | null;
}

/** What a merchant is made with: its settings and, once, the test clock it lives on. */
export interface NewMerchant extends MerchantSettings {
  testClock?: string;
}

export class MerchantStore {
  private readonly merchants = new Map<string, Merchant>();
  /** Told about every change (durable mode). */
  persist: Persist | undefined;

  constructor(private readonly random: RandomSource) {}

  create(input: NewMerchant, now: number): Merchant {
    const merchant: Merchant = {
      id: this.random.uuid(),
      name: input.name ?? null,
      walletAddress: input.walletAddress ?? this.random.hex(20),
      redirectUrl: input.redirectUrl ?? null,
      testClock: input.testClock ?? null,
      createdAt: now,
    };
    this.merchants.set(merchant.id, merchant);
    this.persist?.put('merchant', merchant.id, merchant);
    return merchant;
  }

  /** Puts back a merchant read from the state directory (older records have no testClock). */
  restore(merchant: Merchant): void {
    this.merchants.set(merchant.id, { ...merchant, testClock: merchant.testClock ?? null });
  }

  /** Durable mode: a merchant as the database has it (undefined: gone), not reported again. */
  applyRecord(id: string, merchant: Merchant | undefined): void {
    if (merchant) this.restore(merchant);
    else this.merchants.delete(id);
  }

  /** Every merchant (the clocks attach those on test clocks at start). */
  all(): IterableIterator<Merchant> {
    return this.merchants.values();
  }

  /** A merchant reset takes the merchant off its test clock. */
  leaveTestClock(id: string): void {
    const merchant = this.merchants.get(id);
    if (!merchant || merchant.testClock === null) return;
    merchant.testClock = null;
    this.persist?.put('merchant', merchant.id, merchant);
  }

  get size(): number {
    return this.merchants.size;
  }

  get(id: string): Merchant | undefined {
    return this.merchants.get(id);
  }

  /** Apply dashboard settings; keys left out keep their value. */
  update(id: string, settings: MerchantSettings): Merchant | undefined {
    const merchant = this.merchants.get(id);
    if (!merchant) return undefined;
    if (settings.name !== undefined) merchant.name = settings.name;
    if (settings.walletAddress !== undefined) merchant.walletAddress = settings.walletAddress;
    if (settings.redirectUrl !== undefined) merchant.redirectUrl = settings.redirectUrl;
    this.persist?.put('merchant', merchant.id, merchant);
    return merchant;
  }
}

export function merchantView(m: Merchant): MerchantView {
  return {
    id: m.id,
    name: m.name,
    walletAddress: m.walletAddress,
    redirectUrl: m.redirectUrl,
    testClock: m.testClock,
    createdAt: new Date(m.createdAt).toISOString(),
  } satisfies MerchantView;
}
