// Merchants: the accounts API keys, payments and payouts belong to. Onboarding (sign-up,
// settlement wallet) happens in a dashboard outside the API; the control API stands in for it.
import type { RandomSource } from '../support/random.ts';

export interface Merchant {
  id: string;
  name: string | null;
  /** Settlement wallet that receives the merchant's share on-chain. */
  walletAddress: string;
  createdAt: number;
}

export class MerchantStore {
  private readonly merchants = new Map<string, Merchant>();

  constructor(private readonly random: RandomSource) {}

  create(input: { name?: string | null; walletAddress?: string }, now: number): Merchant {
    const merchant: Merchant = {
      id: this.random.uuid(),
      name: input.name ?? null,
      walletAddress: input.walletAddress ?? this.random.hex(20),
      createdAt: now,
    };
    this.merchants.set(merchant.id, merchant);
    return merchant;
  }

  get(id: string): Merchant | undefined {
    return this.merchants.get(id);
  }
}

export function merchantView(m: Merchant): { id: string; name: string | null; createdAt: string } {
  return { id: m.id, name: m.name, createdAt: new Date(m.createdAt).toISOString() };
}
