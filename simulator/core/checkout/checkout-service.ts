// The checkout behind the hosted page (and, through the chain driver, behind the control API's customer actions):
// sign in (embedded wallet from an e-mail, or an injected wallet), pick a pair, get the one user operation to sign.
// prepare() funds the customer's smart account from the simulator faucet, locks the rate and builds the batch
// (merchant, sellers, fee collector, gas approval for the paymaster); the session remembers its hash, and the
// bundler takes no other operation with that checkout token.
import { getAddress, type Address } from 'viem';
import { formatUserOperationRequest } from 'viem/account-abstraction';
import { privateKeyToAccount, type PrivateKeyAccount } from 'viem/accounts';
import { findChain, isPairSupported, type TokenSymbol } from '@stablepay/contract/chain-table';
import {
  buildSettlementUserOperation,
  ChainLayerError,
  deriveOwnerKey,
  fundAccount,
  getTokenBalance,
  smartAccountOf,
} from '@stablepay/chains';
import type { Web3Proxy } from '@stablepay/chains/rpc-proxy';
import { PAYMENT_REFUSALS } from '../refusals/payment-refusals.ts';
import { Conflict, DomainRefusal, invalidFields, InvalidState, NotFound, Unauthenticated } from '../refusals/refusals.ts';
import type { Payment } from '../payments/types.ts';
import { addressProblem, EMAIL_PROBLEM, normalEmail } from '../validation/index.ts';
import type { CheckoutSessions, IssuedSession } from './checkout-sessions.ts';
import { estimateGasToken, formatTokenUnits, gasFundingUnits } from './gas-estimate.ts';
import { parsePair, quotePayment, type PaymentQuote, type QuoteDeps } from './payment-quote.ts';
import type { CheckoutPair, CheckoutService, PreparedUserOperation } from './types.ts';

export interface CheckoutServiceDeps extends QuoteDeps {
  proxy: Web3Proxy;
  sessions: CheckoutSessions;
}

/** The checkout plus what the control API's customer needs: a session whose key the simulator holds. */
export interface CheckoutEngine extends CheckoutService {
  readonly sessions: CheckoutSessions;
  /** An embedded wallet for this payment alone (per-payment e-mail), its operation held by the bundler. */
  openControlSession(payment: Payment): { session: IssuedSession; owner: PrivateKeyAccount };
  /** prepare() with the quote it locked. */
  prepareQuoted(checkoutToken: string, pair: unknown): Promise<{ prepared: PreparedUserOperation; quote: PaymentQuote }>;
}

export function createCheckoutService(deps: CheckoutServiceDeps): CheckoutEngine {
  const { network, payments, sessions } = deps;

  const payable = (paymentId: unknown): Payment => {
    const payment = typeof paymentId === 'string' ? payments.find(paymentId) : undefined;
    if (!payment) throw new NotFound();
    if (payment.status !== 'ACTIVE') throw new InvalidState(PAYMENT_REFUSALS.notPayable(payment.status));
    return payment;
  };

  /** Fund `address` up to `target` smallest units (the simulator faucet mints the difference). */
  async function topUp(chainId: number, token: TokenSymbol, address: Address, target: bigint): Promise<void> {
    const balance = await getTokenBalance(network, chainId, token, address);
    if (balance < target) await fundAccount(network, chainId, token, address, target - balance);
  }

  function issue(payment: Payment, ownerAddress: Address, hold = false): IssuedSession {
    return sessions.issue({ paymentId: payment.id, merchantId: payment.merchantId, ownerAddress, hold });
  }

  async function prepareQuoted(
    checkoutToken: string,
    pairInput: unknown,
  ): Promise<{ prepared: PreparedUserOperation; quote: PaymentQuote }> {
    const session = typeof checkoutToken === 'string' ? sessions.get(checkoutToken) : undefined;
    if (!session) throw new Unauthenticated('Unknown or expired checkout token');
    const pair = parsePair(pairInput);
    const quote = quotePayment(deps, payable(session.paymentId), pair);
    const { chainId, token, decimals } = quote;
    const account = await smartAccountOf(network, { chainId, ownerAddress: session.ownerAddress });
    // What the chain refuses (a funding transaction, the operation's estimate) is the page's 409 with the chain's
    // reason, never an unhandled 500.
    const onChain = async <T>(work: () => Promise<T>): Promise<T> => {
      try {
        return await work();
      } catch (error) {
        if (!(error instanceof ChainLayerError)) throw error;
        const why = (error.cause instanceof Error ? error.cause.message : error.shortMessage).split('\n')[0];
        throw new Conflict(`The payment cannot be made on ${network.chain(chainId).name} with ${token} right now: ${why}`);
      }
    };
    await onChain(() =>
      topUp(chainId, token, account.address, quote.totalUnits + gasFundingUnits(network, chainId, quote.transfers.length, decimals)),
    );
    const built = await onChain(() =>
      buildSettlementUserOperation({
        network,
        proxy: deps.proxy,
        account,
        token,
        transfers: quote.transfers.map((t) => ({ to: t.to, amountUnits: t.amountUnits })),
      }),
    );
    await onChain(() => topUp(chainId, token, account.address, quote.totalUnits + built.maxGasTokenUnits));
    // The payment may have moved on while the chain was busy; only a payable one gets an operation.
    payable(session.paymentId);
    sessions.prepare(session, { chainId, userOpHash: built.userOpHash, quote });
    const prepared: PreparedUserOperation = {
      sender: account.address,
      entryPoint: network.entryPoint,
      userOperation: formatUserOperationRequest({ ...built.userOperation, signature: '0x' }) as unknown as Record<string, unknown>,
      userOpHash: built.userOpHash,
      amountToken: quote.amountToken,
      gasEstimateToken: formatTokenUnits(built.maxGasTokenUnits, decimals),
    };
    return { prepared, quote };
  }

  return {
    sessions,

    async pairs(paymentId) {
      const payment = typeof paymentId === 'string' ? payments.find(paymentId) : undefined;
      if (!payment) throw new NotFound();
      if (payment.status !== 'ACTIVE') return [];
      const pairs: CheckoutPair[] = [];
      for (const chainId of payment.acceptedChains) {
        for (const token of payment.acceptedTokens) {
          if (!isPairSupported(chainId, token) || !network.chains.has(chainId)) continue;
          let quote: PaymentQuote;
          try {
            quote = quotePayment(deps, payment, { chainId, token });
          } catch (error) {
            // A pair this payment cannot be paid with now is left out of the list, not an error.
            if (error instanceof DomainRefusal) continue;
            throw error;
          }
          pairs.push({
            chainId,
            chainName: findChain(chainId)?.name ?? network.chain(chainId).name,
            token,
            decimals: quote.decimals,
            amountToken: quote.amountToken,
            gasEstimateToken: estimateGasToken(network, chainId, quote.transfers.length),
          });
        }
      }
      return pairs;
    },

    async signIn(paymentId, input) {
      const payment = payable(paymentId);
      const email = normalEmail((input as { email?: unknown } | undefined)?.email);
      if (email === undefined) throw invalidFields([{ path: ['email'], message: EMAIL_PROBLEM }]);
      const ownerPrivateKey = deriveOwnerKey(network.seed, email);
      const ownerAddress = privateKeyToAccount(ownerPrivateKey).address;
      return { checkoutToken: issue(payment, ownerAddress).token, ownerAddress, ownerPrivateKey };
    },

    async connectWallet(paymentId, input) {
      const payment = payable(paymentId);
      const ownerAddress = (input as { ownerAddress?: unknown } | undefined)?.ownerAddress;
      const problem = addressProblem(ownerAddress);
      if (problem) throw invalidFields([{ path: ['ownerAddress'], message: problem.replace(/^address/, 'ownerAddress') }]);
      return { checkoutToken: issue(payment, getAddress(ownerAddress as string)).token };
    },

    paymentOf(checkoutToken) {
      const session = sessions.get(checkoutToken);
      return session && !session.hold ? session.paymentId : undefined;
    },

    async prepare(checkoutToken, pair) {
      return (await prepareQuoted(checkoutToken, pair)).prepared;
    },

    prepareQuoted,

    openControlSession(payment) {
      const owner = privateKeyToAccount(deriveOwnerKey(network.seed, `customer+${payment.id}@control.stablepay.invalid`));
      return { session: issue(payment, owner.address, true), owner };
    },
  };
}
