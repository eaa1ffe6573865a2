// The fixture service's whole state, in memory: merchants, keys (hashed), payments, the webhook endpoint and its
// deliveries, payouts. Time is `Date.now() + offsetMs`: the control API moves the offset in-process, libfaketime moves
// Date.now() itself when the fixture runs as a black-box target.
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { DEFAULT_CHOICES, type FixtureChoices, type FixtureFault, type FixtureOptions } from './choices.ts';

export type Status = 'ACTIVE' | 'PROCESSING' | 'SUCCESSFUL' | 'FAILED' | 'EXPIRED' | 'CANCELLED';

export interface Merchant {
  id: string;
  name: string;
}

export interface KeyRecord {
  id: string;
  merchantId: string;
  hash: string;
  prefix: string;
  name: string | null;
  ipWhitelist: string[] | null;
  expiresAt: number | null;
  revokedAt: number | null;
  createdAt: number;
  seq: number;
}

export interface Seller {
  address: string;
  amount: string;
}

export interface Payment {
  id: string;
  merchantId: string;
  status: Status;
  amount: string;
  currency: string;
  title: string | null;
  externalId: string | null;
  acceptedChains: number[];
  acceptedTokens: string[];
  serviceFee: string;
  merchantFee: string;
  sellers: Seller[] | null;
  chainId: number | null;
  token: string | null;
  exchangeRate: string | null;
  amountToken: string | null;
  serviceFeeToken: string | null;
  merchantFeeToken: string | null;
  gasActual: string | null;
  txHash: string | null;
  error: { code: string; source: string; message: string } | null;
  expiresAt: number;
  paidAt: number | null;
  createdAt: number;
  updatedAt: number;
  /** Creation order, to sort items that share a millisecond. */
  seq: number;
  /** The ledger record's id, once the payment settled. */
  ledgerId?: string;
}

export interface Endpoint {
  id: string;
  merchantId: string;
  url: string;
  enabled: boolean;
  secret: string;
  createdAt: number;
  updatedAt: number;
}

export interface Attempt {
  number: number;
  attemptedAt: number;
  statusCode: number | null;
  durationMs: number;
  error: string | null;
}

export interface Delivery {
  id: string;
  merchantId: string;
  event: string;
  paymentId: string | null;
  payoutId: string | null;
  url: string;
  body: string;
  status: 'pending' | 'succeeded' | 'failed';
  attempts: Attempt[];
  /** When the next attempt is due (ms), or null. */
  nextAttemptAt: number | null;
  /** The instant a faulty attempt-time header claims for the next attempt (fault retry-late-header-on-time). */
  claimedAt?: number;
  createdAt: number;
  seq: number;
}

export interface Payout {
  id: string;
  merchantId: string;
  status: Status;
  amount: string;
  currency: string;
  recipientAddress: string;
  externalId: string | null;
  chainId: number | null;
  token: string | null;
  txHash: string | null;
  expiresAt: number;
  createdAt: number;
  updatedAt: number;
}

export const hashKey = (key: string): string => createHash('sha256').update(key).digest('hex');

const ALPHANUMERIC = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

/** pk_ + 48 letters and digits. */
export function newKey(): string {
  return `pk_${[...randomBytes(48)].map((b) => ALPHANUMERIC[b % ALPHANUMERIC.length]).join('')}`;
}

export class FixtureState {
  readonly choices: FixtureChoices;
  readonly faults: ReadonlySet<FixtureFault>;
  offsetMs = 0;
  private seq = 0;
  readonly merchants = new Map<string, Merchant>();
  readonly keys = new Map<string, KeyRecord>();
  readonly payments = new Map<string, Payment>();
  readonly endpoints = new Map<string, Endpoint>();
  readonly deliveries: Delivery[] = [];
  readonly payouts = new Map<string, Payout>();
  /** Requests per key (or client) in the current fixed window. */
  readonly windows = new Map<string, { start: number; count: number }>();
  rateLimit: number;
  rateWindowSeconds: number;
  /** Whether deliveries carry the attempt's instant on the fixture's clock (X-Simulator-Attempt-Timestamp). */
  readonly attemptTimeHeader: boolean;

  constructor(options: FixtureOptions) {
    this.attemptTimeHeader = options.attemptTimeHeader ?? options.control ?? false;
    this.choices = { ...DEFAULT_CHOICES, ...options.choices };
    this.faults = new Set(options.faults ?? []);
    this.rateLimit = this.choices.rateLimit;
    this.rateWindowSeconds = this.choices.rateWindowSeconds;
  }

  now(): number {
    return Date.now() + this.offsetMs;
  }

  next(): number {
    return ++this.seq;
  }

  has(fault: FixtureFault): boolean {
    return this.faults.has(fault);
  }

  addMerchant(name: string, key = newKey()): { merchant: Merchant; key: string; record: KeyRecord } {
    const merchant = { id: randomUUID(), name };
    this.merchants.set(merchant.id, merchant);
    const record = this.addKey(merchant.id, key, { name: 'default' });
    return { merchant, key, record };
  }

  addKey(
    merchantId: string,
    key: string,
    settings: { name?: string | null; ipWhitelist?: string[] | null; expiresAt?: number | null },
  ): KeyRecord {
    const record: KeyRecord = {
      id: randomUUID(),
      merchantId,
      hash: hashKey(key),
      prefix: key.slice(0, 11),
      name: settings.name ?? null,
      ipWhitelist: settings.ipWhitelist ?? null,
      expiresAt: settings.expiresAt ?? null,
      revokedAt: null,
      createdAt: this.now(),
      seq: this.next(),
    };
    this.keys.set(record.id, record);
    return record;
  }

  keyFor(key: string): KeyRecord | undefined {
    const hash = hashKey(key);
    return [...this.keys.values()].find((record) => record.hash === hash);
  }

  activeKeys(merchantId: string): KeyRecord[] {
    const now = this.now();
    return [...this.keys.values()].filter(
      (k) => k.merchantId === merchantId && k.revokedAt === null && (k.expiresAt === null || k.expiresAt > now),
    );
  }
}
