// The control API's customer, played on the real chains: `submit` signs in an embedded wallet for the payment,
// lets the checkout fund it and build the payment's one user operation, signs it and sends it through the web3
// proxy handler with the session's checkout token — exactly what the hosted page does — so the payment becomes
// PROCESSING when the bundler accepts it. The bundler holds these operations: `confirm` bundles now (SUCCESSFUL or
// FAILED per the receipt), `fail` drops the operation from the mempool (FAILED with the given error). Several
// simulators on one sandbox (custody): the operation may wait in another simulator's mempool; the confirm or fail
// takes it from there (one decision across simulators, before anyone started it) and bundles or drops it here.
import type { Bundler, ChainNetwork } from '@stablepay/chains';
import type { CheckoutEngine, QuoteDeps } from '../checkout/index.ts';
import { quotePayment } from '../checkout/index.ts';
import { PAYMENT_REFUSALS } from '../refusals/payment-refusals.ts';
import { Conflict, InvalidState } from '../refusals/refusals.ts';
import type { PaymentService } from '../payments/payment-service.ts';
import type { Payment, PaymentStatus } from '../payments/types.ts';
import type { Web3Handler } from './web3-handler.ts';
import type { AcceptedOperation, OperationCustody, OperationTracker, TrackedOperation } from './chain-outcomes.ts';
import type { SettlementDriver } from './settlement-driver.ts';
import { refusalError } from './settlement-driver.ts';

export interface ChainDriverDeps {
  payments: PaymentService;
  quoteDeps: QuoteDeps;
  checkout: CheckoutEngine;
  web3Handler: Web3Handler;
  bundler: Bundler;
  network: ChainNetwork;
  tracker: OperationTracker;
  /** Several simulators on one sandbox: who bundles or drops a held operation. */
  custody?: OperationCustody | undefined;
  /** The operation the bundler accepted for a payment, as its checkout session keeps it (through any simulator). */
  acceptedOf(paymentId: string): AcceptedOperation | undefined;
  close(): Promise<void>;
}

const notProcessing = (status: PaymentStatus, event: string) =>
  refusalError({ reason: 'invalid-state', message: `Cannot apply ${event} to a ${status} payment` });

export function createChainDriver(deps: ChainDriverDeps): SettlementDriver {
  const { payments, tracker, bundler } = deps;
  const latest = (id: string): Payment => payments.store.get(id) as Payment;

  const inFlight = async (payment: Payment, event: string): Promise<TrackedOperation> => {
    if (payment.status !== 'PROCESSING') throw notProcessing(payment.status, event);
    const op = tracker.ofPayment(payment.id);
    if (!deps.custody) {
      if (!op) throw new Conflict(`Payment ${payment.id} has no user operation in this simulator's mempool`);
      return op;
    }
    const here = op && bundler.getUserOperation(op.chainId, op.userOpHash);
    // Under way or done here, or not held (the page's: this simulator admitted it and bundles it): as one simulator.
    if (op && here && (here.status !== 'pending' || !here.hold)) return op;
    return takeHeld(payment.id, op);
  };

  /** Several simulators: the held operation becomes this simulator's to bundle or drop, wherever it waited. */
  const takeHeld = async (paymentId: string, known: TrackedOperation | undefined): Promise<TrackedOperation> => {
    let accepted = known ? undefined : deps.acceptedOf(paymentId);
    const op = known ?? accepted?.op;
    if (!op) throw new Conflict(`Payment ${paymentId} has no accepted user operation in this sandbox`);
    if (!(await (deps.custody as OperationCustody).takeHeld(op))) {
      // Another simulator bundles or drops it (or this one's copy was taken from it): never this copy.
      bundler.forget(op.chainId, op.userOpHash);
      throw new Conflict(
        `The user operation of payment ${paymentId} is being bundled or dropped by another simulator of this sandbox; read the payment again shortly`,
      );
    }
    // Into this one's mempool, held, from the chain's view: a copy kept here may be stale (another simulator took it,
    // mined it and stopped before recording it; a takeover then marked it held again), and resume settles it from the
    // receipt if it was mined instead of bundling it a second time.
    const here = bundler.getUserOperation(op.chainId, op.userOpHash);
    const userOperation = here?.userOperation ?? (accepted ??= deps.acceptedOf(paymentId))?.userOperation;
    if (!userOperation) throw new Conflict(`Payment ${paymentId}'s accepted user operation is not kept in this sandbox`);
    bundler.forget(op.chainId, op.userOpHash);
    tracker.track(op);
    await bundler.resume(op.chainId, userOperation, { hold: true });
    return op;
  };

  return {
    // Nothing reaches the chain when the control API fails a payment: the operation leaves the mempool.
    defaultFailureSource: 'bundler',

    async submit(payment, choice) {
      // Same refusals as every customer path (409 not ACTIVE, 400 expired or pair refused) before any chain work.
      quotePayment(deps.quoteDeps, payment, choice);
      const { session, owner } = deps.checkout.openControlSession(payment);
      const { prepared } = await deps.checkout.prepareQuoted(session.token, choice);
      const signature = await owner.signMessage({ message: { raw: prepared.userOpHash } });
      const request = {
        jsonrpc: '2.0',
        id: 1,
        method: 'eth_sendUserOperation',
        params: [{ ...prepared.userOperation, signature }, prepared.entryPoint],
      };
      const reply = await deps.web3Handler(choice.chainId, JSON.stringify(request), {
        merchantId: payment.merchantId,
        checkoutToken: session.token,
      });
      const error = (reply.body as { error?: { message?: string } } | null)?.error;
      if (reply.status !== 200 || error) {
        const now = latest(payment.id);
        if (now.status !== 'ACTIVE') throw new InvalidState(PAYMENT_REFUSALS.notPayable(now.status));
        throw new Conflict(`The bundler refused the payment's user operation: ${error?.message ?? `HTTP ${reply.status}`}`);
      }
      return latest(payment.id);
    },

    async confirm(payment) {
      const op = await inFlight(payment, 'chain.confirmed');
      await bundler.bundle(op.chainId, op.userOpHash);
      return latest(payment.id);
    },

    async fail(payment, error) {
      const op = await inFlight(payment, error.source === 'bundler' ? 'bundler.rejected' : 'chain.failed');
      const stored = bundler.getUserOperation(op.chainId, op.userOpHash);
      if (stored?.status !== 'pending') {
        throw new Conflict(
          `The user operation of payment ${payment.id} can no longer be dropped: it is ${stored?.status === 'bundling' ? 'being bundled' : (stored?.status ?? 'unknown')}`,
        );
      }
      await bundler.drop(op.chainId, op.userOpHash, error);
      return latest(payment.id);
    },

    close: () => deps.close(),
  };
}
