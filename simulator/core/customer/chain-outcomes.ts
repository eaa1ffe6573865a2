// What the bundler's hooks mean for payments. Admission ties a user operation to its payment: it must come with the
// checkout token of that payment and be exactly the operation prepared for it (same userOpHash: calls, gas, nonce);
// anything else is refused with a JSON-RPC error and the payment is untouched. Acceptance moves the payment to
// PROCESSING at the locked rate; the receipt makes it SUCCESSFUL (real txHash, block time, the paymaster's charge,
// the transfers the transaction made) or FAILED (revert); a drop from the mempool makes it FAILED (bundler).
import type { Hex } from 'viem';
import { formatUserOperationRequest } from 'viem/account-abstraction';
import type { CheckoutSession, CheckoutSessions, PaymentQuote } from '../checkout/index.ts';
import { formatTokenUnits } from '../checkout/index.ts';
import {
  parseUserOperation,
  RPC,
  RpcError,
  type Bundler,
  type BundlerHooks,
  type ChainNetwork,
  type UserOperationFailure,
  type UserOperationV07,
} from '@stablepay/chains';
import type { VirtualClock } from '../clock/virtual-clock.ts';
import type { Logger } from '../support/logger.ts';
import type { PaymentService } from '../payments/payment-service.ts';
import type { PaymentEvent } from '../payments/state-machine.ts';
import type { Web3Caller } from './web3-handler.ts';
import { transfersFromLogs } from './settlement-transfers.ts';

export interface TrackedOperation {
  paymentId: string;
  chainId: number;
  userOpHash: Hex;
  quote: PaymentQuote;
  /** A control-API operation: held in the mempool until a confirm or fail. */
  hold?: boolean;
}

/** Accepted operations by hash and by payment (one payment has at most one accepted operation). */
export class OperationTracker {
  private readonly byHash = new Map<string, TrackedOperation>();
  private readonly byPayment = new Map<string, TrackedOperation>();

  private static key(chainId: number, hash: Hex): string {
    return `${chainId}:${hash.toLowerCase()}`;
  }

  track(op: TrackedOperation): void {
    this.byHash.set(OperationTracker.key(op.chainId, op.userOpHash), op);
    this.byPayment.set(op.paymentId, op);
  }

  ofHash(chainId: number, hash: Hex): TrackedOperation | undefined {
    return this.byHash.get(OperationTracker.key(chainId, hash));
  }

  ofPayment(paymentId: string): TrackedOperation | undefined {
    return this.byPayment.get(paymentId);
  }
}

/**
 * Who submits and settles an accepted operation when several simulators share one sandbox (a shared database;
 * runtime/operation-custody.ts). Absent: this simulator is the only one, and it holds every operation it accepts.
 */
export interface OperationCustody {
  /**
   * The admission: takes the operation (one taker across simulators), runs `accept` (the payment's move to PROCESSING,
   * in memory) and resolves true once that is durable, so only then does the operation enter this simulator's
   * mempool. Resolves false without running `accept` when another simulator holds the operation; rejects when the
   * acceptance could not be made durable (it was undone, the operation given back).
   */
  admit(op: TrackedOperation, accept: () => void): Promise<boolean>;
  /** An accepted operation found without a live holder (at start, or its holder stopped): true once this simulator holds it. */
  take(op: TrackedOperation): Promise<boolean>;
  /**
   * A confirm or fail of a held operation, which may reach any simulator: resolves true once this simulator is the one
   * to bundle or drop it (taken from whichever simulator held it, by one decision across all of them), false when
   * another one already is. Rejects when that could not be decided (the database away).
   */
  takeHeld(op: TrackedOperation): Promise<boolean>;
}

export interface ChainOutcomeDeps {
  payments: PaymentService;
  sessions: CheckoutSessions;
  network: ChainNetwork;
  clock: Pick<VirtualClock, 'now'>;
  logger: Logger;
  tracker: OperationTracker;
  custody?: OperationCustody | undefined;
}

const refuse = (message: string): RpcError => new RpcError(RPC.INVALID_PARAMS, message);

export function createChainOutcomeHooks(deps: ChainOutcomeDeps): BundlerHooks {
  const { payments, sessions, tracker, logger } = deps;

  const record = (paymentId: string, event: PaymentEvent): void => {
    // Another simulator sharing the sandbox recorded this very settlement first (this one caught up since): nothing to do.
    const current = payments.find(paymentId);
    if (event.type === 'chain.confirmed' && current?.status === 'SUCCESSFUL' && current.txHash === event.txHash) return;
    const result = payments.apply(paymentId, event);
    if (!result.ok)
      logger.error(`payment ${paymentId}: the chain reported ${event.type} but the payment refused it (${result.refusal.message})`);
  };

  const failureEvent = (failure: UserOperationFailure): PaymentEvent =>
    failure.source === 'bundler' ? { type: 'bundler.rejected', error: { ...failure } } : { type: 'chain.failed', error: { ...failure } };

  return {
    async admitUserOperation({ chainId, userOpHash, userOperation, phase, context }) {
      const token = (context as Web3Caller | undefined)?.checkoutToken;
      if (!token) {
        throw refuse(
          'eth_sendUserOperation pays a payment: send it with the checkout token of that payment (Authorization: Bearer ct_...), as the hosted page does',
        );
      }
      const session = sessions.get(token);
      if (!session) throw refuse('The checkout token is unknown or expired');
      const prepared = session.prepared;
      const paymentId = session.paymentId;
      if (!prepared)
        throw refuse(`No user operation has been prepared for payment ${paymentId}; prepare one (pick a chain and token) first`);
      if (prepared.chainId !== chainId)
        throw refuse(`The user operation of payment ${paymentId} was prepared for chain ${prepared.chainId}, not chain ${chainId}`);
      if (prepared.userOpHash.toLowerCase() !== userOpHash.toLowerCase()) {
        throw refuse(
          `This user operation is not the one prepared for payment ${paymentId}: its userOpHash is ${userOpHash}, expected ${prepared.userOpHash} (calls, gas or nonce differ)`,
        );
      }
      if (prepared.accepted) throw refuse(`The user operation of payment ${paymentId} has already been submitted`);
      const payment = payments.find(paymentId);
      if (!payment) throw refuse(`Payment ${paymentId} does not exist`);
      if (payment.status !== 'ACTIVE') throw refuse(`Payment ${paymentId} is not payable (status: ${payment.status})`);
      if (phase === 'check') return {};
      // Acceptance: the payment moves to PROCESSING at the locked rate, in the same tick as the check above.
      const { quote } = prepared;
      const op: TrackedOperation = { paymentId, chainId, userOpHash, quote, hold: session.hold };
      const accept = (): void => {
        const result = payments.apply(paymentId, {
          type: 'customer.submitted',
          chainId,
          token: quote.token,
          exchangeRate: quote.exchangeRate,
        });
        if (!result.ok) {
          if (result.refusal.reason === 'expired') payments.apply(paymentId, { type: 'clock.expired' });
          throw refuse(`Payment ${paymentId} cannot take this user operation: ${result.refusal.message}`);
        }
        const p = result.payment;
        if (
          p.amountToken !== quote.amountToken ||
          p.serviceFeeToken !== quote.serviceFeeToken ||
          p.merchantFeeToken !== quote.merchantFeeToken
        ) {
          logger.error(
            `payment ${paymentId}: amounts at acceptance differ from the prepared quote (${p.amountToken} vs ${quote.amountToken})`,
          );
        }
        // Kept signed, in its RPC form, so durable mode can put it back in the mempool after a restart.
        sessions.accept(session, formatUserOperationRequest(userOperation) as Record<string, unknown>);
        tracker.track(op);
      };
      if (!deps.custody) accept();
      else if (!(await admitted(deps.custody, op, accept)))
        throw refuse(`The user operation of payment ${paymentId} has already been submitted (through another simulator of this sandbox)`);
      return { hold: session.hold };
    },

    onUserOperationSettled(settlement) {
      const op = tracker.ofHash(settlement.chainId, settlement.userOpHash);
      if (!op) return;
      if (!settlement.success) {
        record(
          op.paymentId,
          failureEvent(
            settlement.failure ?? {
              code: 'TRANSACTION_REVERTED',
              source: 'chain',
              message: `User operation reverted on chain ${op.chainId}`,
            },
          ),
        );
        return;
      }
      const transfers = transfersFromLogs(deps.network, op.quote, settlement.sender, settlement.logs);
      if (transfers.unexpected.length > 0 || transfers.missing.length > 0) {
        logger.error(
          `payment ${op.paymentId}: transaction ${settlement.txHash} transferred ${JSON.stringify(transfers.unexpected)}, missing ${JSON.stringify(transfers.missing)}`,
        );
      }
      record(op.paymentId, {
        type: 'chain.confirmed',
        txHash: settlement.txHash,
        gasActual: formatTokenUnits(settlement.gasChargedUnits, op.quote.decimals),
        paidAt: settlement.blockTimestampMs,
        transfers: transfers.recorded,
      });
    },

    onUserOperationRejected(event) {
      if (event.stage !== 'mempool') return; // refused at eth_sendUserOperation: the payment is still ACTIVE
      const op = tracker.ofHash(event.chainId, event.userOpHash);
      if (op) record(op.paymentId, failureEvent(event.failure));
    },

    onHookError: (hook, error) => logger.error(`bundler hook ${hook} failed`, error),
  };
}

export interface RecordAgainDeps {
  tracker: OperationTracker;
  bundler: Pick<Bundler, 'getUserOperation'>;
  hooks: Pick<BundlerHooks, 'onUserOperationSettled' | 'onUserOperationRejected'>;
  payments: Pick<PaymentService, 'find'>;
}

/**
 * Several simulators on one sandbox: the outcomes this simulator's bundler reached that its payments no longer show.
 * A settlement is reported by the receipt outside any request and committed a moment later; if the catch-up before
 * that commit meets another process's version of any record this simulator changed meanwhile, everything not yet
 * committed is undone (runtime/sql-store/sql-durable-state.ts), the settlement with it, and the payment is back to
 * PROCESSING while its operation is mined: no hook fires twice, so nothing else would ever record it. The lease sweep
 * calls this for the PROCESSING payments whose operation this simulator holds; each one whose operation this bundler
 * settled or dropped gets its outcome recorded again, with its events and ledger entry. Returns how many.
 */
export async function recordFinishedAgain(deps: RecordAgainDeps, paymentIds: ReadonlySet<string>): Promise<number> {
  let recorded = 0;
  for (const paymentId of paymentIds) {
    const op = deps.tracker.ofPayment(paymentId);
    if (!op || deps.payments.find(paymentId)?.status !== 'PROCESSING') continue;
    const stored = deps.bundler.getUserOperation(op.chainId, op.userOpHash);
    if (stored?.status === 'settled' && stored.settlement) {
      await deps.hooks.onUserOperationSettled?.(stored.settlement);
    } else if (stored?.status === 'dropped' && stored.failure) {
      await deps.hooks.onUserOperationRejected?.({
        chainId: stored.chainId,
        userOpHash: stored.userOpHash,
        sender: stored.userOperation.sender,
        stage: 'mempool',
        rpcCode: RPC.REJECTED_BY_ENTRY_POINT,
        message: stored.failure.message,
        failure: stored.failure,
      });
    } else continue;
    recorded += 1;
  }
  return recorded;
}

/** The custody's admission; a refusal thrown by `accept` stays the caller's error, any other failure becomes one. */
async function admitted(custody: OperationCustody, op: TrackedOperation, accept: () => void): Promise<boolean> {
  try {
    return await custody.admit(op, accept);
  } catch (error) {
    if (error instanceof RpcError) throw error;
    throw new RpcError(
      RPC.INTERNAL_ERROR,
      `The acceptance of payment ${op.paymentId}'s user operation could not be recorded (${(error as Error)?.message ?? String(error)}); nothing was submitted, retry`,
    );
  }
}

export interface ResumeAcceptedDeps {
  payments: PaymentService;
  tracker: OperationTracker;
  bundler: Pick<Bundler, 'resume' | 'getUserOperation' | 'forget'>;
  logger: Logger;
  custody?: OperationCustody | undefined;
}

/**
 * Durable mode, at start: every payment still PROCESSING whose accepted operation the state dir kept goes on. Its
 * operation is tracked again and handed back to the bundler, which reads its settlement from the chain if it was
 * mined before the stop, or puts it back in the mempool (held as before for control-API payments). The payment then
 * ends SUCCESSFUL or FAILED through the usual hooks. With several simulators on one sandbox the same runs when an
 * operation's holder stopped (its lease ran out), for the operations this simulator takes. Returns how many were resumed.
 */
export async function resumeAcceptedOperations(deps: ResumeAcceptedDeps, accepted: readonly CheckoutSession[]): Promise<number> {
  let resumed = 0;
  await Promise.all(
    accepted.map(async (session) => {
      const payment = deps.payments.find(session.paymentId);
      if (!session.prepared?.signedOperation || payment?.status !== 'PROCESSING') return;
      try {
        const { op, userOperation } = acceptedOperation(session) as AcceptedOperation;
        // Several simulators: only the one that takes the operation goes on with it (its holder may be alive).
        if (deps.custody && !(await deps.custody.take(op))) return;
        deps.tracker.track(op);
        // A held copy still here is stale (another simulator took it since): the chain decides, through resume.
        const here = deps.bundler.getUserOperation(op.chainId, op.userOpHash);
        if (here?.status === 'pending' && here.hold) deps.bundler.forget(op.chainId, op.userOpHash);
        await deps.bundler.resume(op.chainId, userOperation, { hold: session.hold });
        resumed += 1;
      } catch (error) {
        deps.logger.error(`payment ${session.paymentId}: its accepted user operation could not be resumed after the restart`, error);
      }
    }),
  );
  return resumed;
}

/** An operation the bundler accepted for a payment, as its checkout session keeps it (signed, in its RPC form). */
export interface AcceptedOperation {
  op: TrackedOperation;
  userOperation: UserOperationV07;
}

/** The accepted operation a session keeps; undefined when it has none. Throws when the stored operation is unreadable. */
export function acceptedOperation(session: CheckoutSession): AcceptedOperation | undefined {
  const prepared = session.prepared;
  if (!prepared?.accepted || !prepared.signedOperation) return undefined;
  return {
    op: {
      paymentId: session.paymentId,
      chainId: prepared.chainId,
      userOpHash: prepared.userOpHash,
      quote: prepared.quote,
      hold: session.hold,
    },
    userOperation: parseUserOperation(prepared.signedOperation),
  };
}
