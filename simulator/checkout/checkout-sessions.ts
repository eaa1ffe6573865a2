// Checkout sessions: what a checkout token (ct_...) stands for. A token is bound to one payment and one smart-account
// owner, opens only the web3 proxy (and the page's prepare call), and is never logged. It expires 24 h of virtual
// time after it was issued. A session remembers the one user operation prepared for it: that, and nothing else, is
// what the bundler will take with this token.
import { randomBytes } from 'node:crypto';
import type { Address, Hex } from 'viem';
import type { VirtualClock } from '../clock/virtual-clock.ts';
import type { PaymentQuote } from './payment-quote.ts';

export const CHECKOUT_TOKEN_TTL_MS = 24 * 3_600_000;
const TOKEN_PATTERN = /^ct_[0-9a-f]{48}$/;

export interface PreparedOperation {
  chainId: number;
  userOpHash: Hex;
  quote: PaymentQuote;
  /** Set once the bundler accepted it: the same session cannot pay twice. */
  accepted: boolean;
}

export interface CheckoutSession {
  readonly token: string;
  readonly paymentId: string;
  readonly merchantId: string;
  /** Owner of the customer's smart account (embedded wallet or injected wallet). */
  readonly ownerAddress: Address;
  /** Control API sessions: the bundler holds their operation until confirm or fail. */
  readonly hold: boolean;
  readonly expiresAt: number;
  prepared?: PreparedOperation;
}

export interface IssueSessionInput {
  paymentId: string;
  merchantId: string;
  ownerAddress: Address;
  hold?: boolean;
}

export class CheckoutSessions {
  private readonly sessions = new Map<string, CheckoutSession>();

  constructor(private readonly clock: Pick<VirtualClock, 'now'>) {}

  issue(input: IssueSessionInput): CheckoutSession {
    const session: CheckoutSession = {
      token: `ct_${randomBytes(24).toString('hex')}`,
      paymentId: input.paymentId,
      merchantId: input.merchantId,
      ownerAddress: input.ownerAddress,
      hold: input.hold ?? false,
      expiresAt: this.clock.now() + CHECKOUT_TOKEN_TTL_MS,
    };
    this.sessions.set(session.token, session);
    return session;
  }

  /** The live session of `token`; undefined for an unknown, malformed or expired token. */
  get(token: string): CheckoutSession | undefined {
    if (!TOKEN_PATTERN.test(token)) return undefined;
    const session = this.sessions.get(token);
    if (!session) return undefined;
    if (this.clock.now() >= session.expiresAt) {
      this.sessions.delete(token);
      return undefined;
    }
    return session;
  }

  /** For the web3 proxy's auth: which merchant a valid checkout token acts for. */
  grant(token: string): { merchantId: string } | undefined {
    const session = this.get(token);
    return session ? { merchantId: session.merchantId } : undefined;
  }
}
