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
  createdAt: number;
}

export interface MerchantSettings {
  name?: string | null;
  walletAddress?: string;
  redirectUrl?: string | null;
}

export class MerchantStore {
  private readonly merchants = new Map<string, Merchant>();
  /** Told about every change (durable mode). */
  persist: Persist | undefined;

  constructor(private readonly random: RandomSource) {}

  create(input: MerchantSettings, now: number): Merchant {
    const merchant: Merchant = {
      id: this.random.uuid(),
      name: input.name ?? null,
      walletAddress: input.walletAddress ?? this.random.hex(20),
      redirectUrl: input.redirectUrl ?? null,
      createdAt: now,
    };
    this.merchants.set(merchant.id, merchant);
    this.persist?.put('merchant', merchant.id, merchant);
    return merchant;
  }

  /** Puts back a merchant read from the state directory. */
  restore(merchant: Merchant): void {
    this.merchants.set(merchant.id, merchant);
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
    createdAt: new Date(m.createdAt).toISOString(),
  } satisfies MerchantView;
}
