// API keys by hash (lookup on every request) and per merchant (listing, limits).
import { NewestFirstIndex } from '../support/newest-first-index.ts';
import type { RandomSource } from '../support/random.ts';
import type { ApiKeyRecord } from './api-key.ts';
import { generateApiKey, hashApiKey, keyStatus, PREFIX_LENGTH } from './api-key.ts';
import { compileWhitelist } from './ip-whitelist.ts';

export const MAX_ACTIVE_KEYS = 10;

export interface NewKeyInput {
  name?: string | null;
  ipWhitelist?: string[] | null;
  expiresAt?: number | null;
  /** Use this key instead of a fresh random one (the configurable default key). */
  key?: string;
}

export class ApiKeyStore {
  private readonly byHash = new Map<string, ApiKeyRecord>();
  private readonly byId = new Map<string, ApiKeyRecord>();
  private readonly byMerchant = new Map<string, NewestFirstIndex>();

  constructor(private readonly random: RandomSource) {}

  /** Create a key; returns the record and the key itself, which is never stored. */
  create(merchantId: string, input: NewKeyInput, now: number): { record: ApiKeyRecord; key: string } {
    const key = input.key ?? generateApiKey();
    const hash = hashApiKey(key);
    if (this.byHash.has(hash)) throw new Error('API key already exists');
    const ipWhitelist = input.ipWhitelist ? [...input.ipWhitelist] : null;
    const record: ApiKeyRecord = {
      id: this.random.uuid(),
      merchantId,
      name: input.name ?? null,
      prefix: key.slice(0, PREFIX_LENGTH),
      hash,
      ipWhitelist,
      allowList: ipWhitelist ? compileWhitelist(ipWhitelist) : null,
      expiresAt: input.expiresAt ?? null,
      revokedAt: null,
      lastUsedAt: null,
      createdAt: now,
    };
    this.byHash.set(hash, record);
    this.byId.set(record.id, record);
    let index = this.byMerchant.get(merchantId);
    if (!index) this.byMerchant.set(merchantId, (index = new NewestFirstIndex()));
    index.insert(record.id, now);
    return { record, key };
  }

  findByKey(key: string): ApiKeyRecord | undefined {
    return this.byHash.get(hashApiKey(key));
  }

  getOwned(merchantId: string, id: string): ApiKeyRecord | undefined {
    const record = this.byId.get(id);
    return record?.merchantId === merchantId ? record : undefined;
  }

  countActive(merchantId: string, now: number): number {
    let n = 0;
    for (const id of this.byMerchant.get(merchantId)?.ids() ?? []) {
      if (keyStatus(this.byId.get(id) as ApiKeyRecord, now) === 'active') n += 1;
    }
    return n;
  }

  list(merchantId: string, cursor: string | undefined, limit: number): { items: ApiKeyRecord[]; hasMore: boolean } | undefined {
    const page = (this.byMerchant.get(merchantId) ?? new NewestFirstIndex()).page({ cursor, limit });
    if (!page) return undefined;
    return { items: page.ids.map((id) => this.byId.get(id) as ApiKeyRecord), hasMore: page.hasMore };
  }

  revoke(record: ApiKeyRecord, now: number): ApiKeyRecord {
    if (record.revokedAt === null) record.revokedAt = now;
    return record;
  }

  touch(record: ApiKeyRecord, now: number): void {
    record.lastUsedAt = now;
  }
}
