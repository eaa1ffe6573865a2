// API key records (decisions.md "API keys"): the key is shown once; only its SHA-256 hash and the
// first 11 characters ("pk_" + 8; fewer for a short key, never more than half of it) are kept.
import { hash, randomBytes } from 'node:crypto';
import type { BlockList } from 'node:net';
import type { ApiKey as ApiKeyView, ApiKeyStatus } from '@stablepay/contract/types';

export const KEY_PREFIX = 'pk_';
export const PREFIX_LENGTH = 11;
/** Keys we accept as given (default key option); generated keys are pk_ + 48 hex. */
export const API_KEY_PATTERN = /^pk_[A-Za-z0-9]{8,128}$/;

export type { ApiKeyStatus, ApiKeyView };

export interface ApiKeyRecord {
  id: string;
  merchantId: string;
  name: string | null;
  prefix: string;
  hash: string;
  ipWhitelist: string[] | null;
  /** Compiled whitelist; null means any address. */
  allowList: BlockList | null;
  expiresAt: number | null;
  revokedAt: number | null;
  lastUsedAt: number | null;
  createdAt: number;
}

/**
 * The part of a key shown in listings: "pk_" and up to 8 more characters, never more than half of what follows
 * "pk_", so a short key given as the default (pk_12345678) is never shown whole.
 */
export function displayedPrefix(key: string): string {
  const secret = key.length - KEY_PREFIX.length;
  return key.slice(0, Math.min(PREFIX_LENGTH, KEY_PREFIX.length + Math.floor(secret / 2)));
}

export function generateApiKey(): string {
  return `${KEY_PREFIX}${randomBytes(24).toString('hex')}`;
}

// Runs on every request: the one-shot hash() costs half of a createHash() object (Node >= 20.12, see engines).
export function hashApiKey(key: string): string {
  return hash('sha256', key, 'hex');
}

export function keyStatus(record: ApiKeyRecord, now: number): ApiKeyStatus {
  if (record.revokedAt !== null) return 'revoked';
  if (record.expiresAt !== null && now >= record.expiresAt) return 'expired';
  return 'active';
}

const isoOrNull = (ms: number | null): string | null => (ms === null ? null : new Date(ms).toISOString());

export function apiKeyView(record: ApiKeyRecord, now: number): ApiKeyView {
  return {
    id: record.id,
    name: record.name,
    prefix: record.prefix,
    ipWhitelist: record.ipWhitelist ? [...record.ipWhitelist] : null,
    expiresAt: isoOrNull(record.expiresAt),
    revokedAt: isoOrNull(record.revokedAt),
    lastUsedAt: isoOrNull(record.lastUsedAt),
    status: keyStatus(record, now),
    createdAt: new Date(record.createdAt).toISOString(),
  } satisfies ApiKeyView;
}
