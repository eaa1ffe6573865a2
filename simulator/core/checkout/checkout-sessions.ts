// Checkout sessions: what a checkout token (ct_...) stands for. A token is bound to one payment and one smart-account
// owner, opens only the web3 proxy (and the page's prepare call), and is never logged. It expires 24 h of virtual
// time after it was issued. A session remembers the one user operation prepared for it: that, and nothing else, is
// what the bundler will take with this token.
//
// The token is a bearer secret: only its SHA-256 is kept, in memory and in the state dir (durable mode), and a
// session is found by hashing the token presented. Changes go through issue/prepare/accept so each reaches `persist`.
import { createHash, randomBytes } from 'node:crypto';
import type { Address, Hex } from 'viem';
import type { MerchantTime } from '../clock/virtual-clock.ts';
import type { Persist } from '../support/persist.ts';
import type { PaymentQuote } from './payment-quote.ts';

export const CHECKOUT_TOKEN_TTL_MS = 24 * 3_600_000;
const TOKEN_PATTERN = /^ct_[0-9a-f]{48}$/;
/** The kind of the sessions' records in the state dir, keyed by the token's SHA-256. */
export const CHECKOUT_SESSION_KIND = 'checkout-session';

export interface PreparedOperation {
  readonly chainId: number;
  readonly userOpHash: Hex;
  readonly quote: PaymentQuote;
  /** Set once the bundler accepted it: the same session cannot pay twice. */
  readonly accepted: boolean;
  /**
   * The signed operation as the bundler took it (its RPC form: plain JSON, hex quantities), kept once accepted so
   * that durable mode can put an operation that was not yet mined back into the mempool after a restart.
   */
  readonly signedOperation?: Readonly<Record<string, unknown>>;
}

export interface CheckoutSession {
  /** SHA-256 (hex) of the token: the only form of the token that is kept. */
  readonly tokenHash: string;
  readonly paymentId: string;
  readonly merchantId: string;
  /** Owner of the customer's smart account (embedded wallet or injected wallet). */
  readonly ownerAddress: Address;
  /** Control API sessions: the bundler holds their operation until confirm or fail. */
  readonly hold: boolean;
  readonly expiresAt: number;
  /** Set by prepare(), flipped to accepted by accept(). */
  readonly prepared?: PreparedOperation;
}

/** What issue() hands back: the session and, this once, its token. */
export interface IssuedSession extends CheckoutSession {
  readonly token: string;
}

export interface IssueSessionInput {
  paymentId: string;
  merchantId: string;
  ownerAddress: Address;
  hold?: boolean;
}

/** A session as written to the state dir: plain JSON, bigints as decimal strings, no token. */
export interface StoredCheckoutSession extends Omit<CheckoutSession, 'prepared'> {
  prepared?: Omit<PreparedOperation, 'quote'> & {
    quote: Omit<PaymentQuote, 'transfers' | 'totalUnits'> & {
      transfers: (Omit<PaymentQuote['transfers'][number], 'amountUnits'> & { amountUnits: string })[];
      totalUnits: string;
    };
  };
}

export function hashCheckoutToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

function toStored(session: CheckoutSession): StoredCheckoutSession {
  const { prepared, ...rest } = session;
  if (!prepared) return { ...rest };
  const { quote } = prepared;
  return {
    ...rest,
    prepared: {
      ...prepared,
      quote: {
        ...quote,
        transfers: quote.transfers.map((t) => ({ ...t, amountUnits: t.amountUnits.toString() })),
        totalUnits: quote.totalUnits.toString(),
      },
    },
  };
}

function fromStored(stored: StoredCheckoutSession): CheckoutSession {
  const { prepared, ...rest } = stored;
  if (!prepared) return { ...rest };
  const { quote } = prepared;
  return {
    ...rest,
    prepared: {
      ...prepared,
      quote: {
        ...quote,
        transfers: quote.transfers.map((t) => ({ ...t, amountUnits: BigInt(t.amountUnits) })),
        totalUnits: BigInt(quote.totalUnits),
      },
    },
  };
}

export class CheckoutSessions {
  /** tokenHash -> session, in order of expiry (issue order: the TTL is the same for all). */
  private readonly sessions = new Map<string, CheckoutSession>();
  /** Durable mode: where each change is reported (set by the composition root, after restore()). */
  persist: Persist | undefined;

  /** Sessions expire on their merchant's clock. */
  constructor(private readonly clock: MerchantTime) {}

  issue(input: IssueSessionInput): IssuedSession {
    this.sweep();
    const token = `ct_${randomBytes(24).toString('hex')}`;
    const session: CheckoutSession = {
      tokenHash: hashCheckoutToken(token),
      paymentId: input.paymentId,
      merchantId: input.merchantId,
      ownerAddress: input.ownerAddress,
      hold: input.hold ?? false,
      expiresAt: this.clock.for(input.merchantId).now() + CHECKOUT_TOKEN_TTL_MS,
    };
    this.save(session);
    return { ...session, token };
  }

  /** The live session of `token`; undefined for an unknown, malformed or expired token. */
  get(token: string): CheckoutSession | undefined {
    if (!TOKEN_PATTERN.test(token)) return undefined;
    this.sweep();
    const tokenHash = hashCheckoutToken(token);
    const session = this.sessions.get(tokenHash);
    if (!session) return undefined;
    if (this.clock.for(session.merchantId).now() >= session.expiresAt) {
      this.remove(tokenHash);
      return undefined;
    }
    return session;
  }

  /** Remember the one operation prepared for this session (replacing an earlier, unaccepted one). */
  prepare(session: CheckoutSession, operation: Omit<PreparedOperation, 'accepted'>): CheckoutSession {
    return this.save({ ...this.current(session), prepared: { ...operation, accepted: false } });
  }

  /** The bundler took the prepared operation (signed, in its RPC form): the session cannot pay again. */
  accept(session: CheckoutSession, signedOperation?: Readonly<Record<string, unknown>>): CheckoutSession {
    const current = this.current(session);
    if (!current.prepared) throw new RangeError(`checkout session of payment ${current.paymentId} has no prepared operation to accept`);
    return this.save({ ...current, prepared: { ...current.prepared, accepted: true, ...(signedOperation ? { signedOperation } : {}) } });
  }

  /** The sessions of these payments whose signed operation the bundler took (a takeover of operations whose holder stopped). */
  acceptedOf(paymentIds: ReadonlySet<string>): CheckoutSession[] {
    return [...this.sessions.values()].filter((s) => paymentIds.has(s.paymentId) && s.prepared?.accepted && s.prepared.signedOperation);
  }

  /** For the web3 proxy's auth: which merchant a valid checkout token acts for. */
  grant(token: string): { merchantId: string } | undefined {
    const session = this.get(token);
    return session ? { merchantId: session.merchantId } : undefined;
  }

  /**
   * Durable mode, at start: put back the stored sessions that have not expired, delete the expired ones from the
   * state dir, and report every change to `persist` from now on.
   */
  restore(records: Iterable<StoredCheckoutSession>, persist: Persist): { restored: number; expired: number; accepted: CheckoutSession[] } {
    const live: CheckoutSession[] = [];
    // Sessions whose signed operation the bundler had taken, expired or not: the operation may still be unmined.
    const accepted: CheckoutSession[] = [];
    let expired = 0;
    for (const record of records) {
      const session = fromStored(record);
      if (session.prepared?.accepted && session.prepared.signedOperation) accepted.push(session);
      if (this.clock.for(record.merchantId).now() >= record.expiresAt) {
        persist.delete(CHECKOUT_SESSION_KIND, record.tokenHash);
        expired += 1;
      } else {
        live.push(session);
      }
    }
    for (const session of live.sort((a, b) => a.expiresAt - b.expiresAt)) this.sessions.set(session.tokenHash, session);
    this.persist = persist;
    return { restored: live.length, expired, accepted };
  }

  /** Durable mode: a session as the database has it (undefined: gone), not reported again. */
  applyRecord(tokenHash: string, record: StoredCheckoutSession | undefined): void {
    if (record) this.sessions.set(tokenHash, fromStored(record));
    else this.sessions.delete(tokenHash);
  }

  private current(session: CheckoutSession): CheckoutSession {
    const current = this.sessions.get(session.tokenHash);
    if (!current) throw new RangeError(`checkout session of payment ${session.paymentId} is not live`);
    return current;
  }

  private save(session: CheckoutSession): CheckoutSession {
    this.sessions.set(session.tokenHash, session);
    this.persist?.put(CHECKOUT_SESSION_KIND, session.tokenHash, toStored(session));
    return session;
  }

  private remove(tokenHash: string): void {
    this.sessions.delete(tokenHash);
    this.persist?.delete(CHECKOUT_SESSION_KIND, tokenHash);
  }

  /**
   * Drop expired sessions from the front (the map is in issue order, which is expiry order on one clock): amortised
   * constant time. One stopped behind a live session of a merchant whose clock is behind goes at its own get().
   */
  private sweep(): void {
    for (const [tokenHash, session] of this.sessions) {
      if (this.clock.for(session.merchantId).now() < session.expiresAt) return;
      this.remove(tokenHash);
    }
  }
}
