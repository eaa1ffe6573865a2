// API keys by hash (lookup on every request) and per merchant (listing, limits).
import { NewestFirstIndex } from '../support/newest-first-index.ts';
import type { Persist } from '../support/persist.ts';
import type { RandomSource } from '../support/random.ts';
import type { ApiKeyRecord } from './api-key.ts';
import { displayedPrefix, generateApiKey, hashApiKey, keyStatus } from './api-key.ts';
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

  /** Told about every change (durable mode); only the hash of a key is ever handed over. */
  persist: Persist | undefined;

  constructor(private readonly random: RandomSource) {}

  /** Puts back a key record read from the state directory (its whitelist compiled again). */
  restore(stored: Omit<ApiKeyRecord, 'allowList'>): void {
    const record: ApiKeyRecord = { ...stored, allowList: stored.ipWhitelist ? compileWhitelist(stored.ipWhitelist) : null };
    this.index(record);
  }

  /** Durable mode: a key record as the database has it (undefined: gone), not reported again. */
  applyRecord(id: string, stored: Omit<ApiKeyRecord, 'allowList'> | undefined): void {
    const previous = this.byId.get(id);
    if (previous) {
      this.byHash.delete(previous.hash);
      this.byId.delete(id);
      this.byMerchant.get(previous.merchantId)?.remove(id);
    }
    if (stored) this.restore(stored);
  }

  private index(record: ApiKeyRecord): void {
    this.byHash.set(record.hash, record);
    this.byId.set(record.id, record);
    let index = this.byMerchant.get(record.merchantId);
    if (!index) this.byMerchant.set(record.merchantId, (index = new NewestFirstIndex()));
    index.insert(record.id, record.createdAt);
  }

  private save(record: ApiKeyRecord): void {
    if (!this.persist) return;
    const { allowList: _compiled, ...stored } = record;
    this.persist.put('key', record.id, stored);
  }

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
      prefix: displayedPrefix(key),
      hash,
      ipWhitelist,
      allowList: ipWhitelist ? compileWhitelist(ipWhitelist) : null,
      expiresAt: input.expiresAt ?? null,
      revokedAt: null,
      lastUsedAt: null,
      createdAt: now,
    };
    this.index(record);
    this.save(record);
    return { record, key };
  }

  findByKey(key: string): ApiKeyRecord | undefined {
    return this.byHash.get(hashApiKey(key));
  }

  findByHash(hash: string): ApiKeyRecord | undefined {
    return this.byHash.get(hash);
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
    this.save(record);
    return record;
  }

  touch(record: ApiKeyRecord, now: number): void {
    record.lastUsedAt = now;
    this.save(record);
  }
}
