// The hosted page's script: reads the server's first render from <main data-*>, keeps the
// countdown ticking on the virtual clock, follows the payment, and wires the three steps.
import type { ClockSync } from '../countdown.ts';
import type { CustomerPaymentView, PaymentState } from '../customer-view.ts';
import { isFinal, isPayable } from '../status-text.ts';
import type { CheckoutContext } from './checkout-context.ts';
import { errorMessage } from './checkout-context.ts';
import { byId } from './dom.ts';
import { followPayment } from './follow-payment.ts';
import { createPageApi } from './page-api.ts';
import { renderCountdown, renderPayment } from './page-view.ts';
import { refreshPayButton, wirePairPicker, wirePayButton } from './pay.ts';
import { wireSignIn } from './sign-in.ts';

/** Time to read "Payment complete" before the merchant's page takes over. */
const REDIRECT_DELAY_MS = 3000;

const root = byId('pay-page');
const paymentId = root.dataset.paymentId ?? '';
let status = (root.dataset.status ?? 'ACTIVE') as CustomerPaymentView['status'];
let expiresAtMs = Date.parse(root.dataset.expiresAt ?? '');
let sync: ClockSync = { serverNowMs: Date.parse(root.dataset.now ?? ''), receivedAtMs: Date.now() };
let redirecting = false;

const ctx: CheckoutContext = {
  api: createPageApi(paymentId),
  payment: undefined,
  session: undefined,
  pair: undefined,
  paying: false,
  submitted: false,
  follower: undefined,
  refreshPayButton: () => refreshPayButton(ctx),
};

function applyState(state: PaymentState): void {
  const { payment } = state;
  const changed = payment.status !== status;
  status = payment.status;
  ctx.payment = payment;
  expiresAtMs = Date.parse(payment.expiresAt);
  sync = { serverNowMs: Date.parse(state.now), receivedAtMs: Date.now() };
  renderPayment(payment, changed);
  ctx.refreshPayButton();
  if (changed && isFinal(payment.status) && ctx.submitted) byId('status').focus();
  if (payment.status === 'SUCCESSFUL' && payment.redirectUrl && !redirecting) {
    redirecting = true;
    const target = payment.redirectUrl;
    setTimeout(() => window.location.assign(target), REDIRECT_DELAY_MS);
  }
}

wireSignIn(ctx);
wirePairPicker(ctx);
wirePayButton(ctx);

ctx.follower = followPayment(ctx.api.state, applyState, (error) => console.warn('pay page: state poll failed:', errorMessage(error)));
// The server's render is current; fetch once anyway so ctx.payment is set before any click.
ctx.api.state().then(applyState, () => undefined);

const ticker = setInterval(() => {
  if (!isPayable(status)) return;
  // At zero the server expires the payment on the next read; ask now rather than at the next slow poll.
  if (renderCountdown(expiresAtMs, sync) === 0) ctx.follower?.hurry();
}, 1000);
if (isFinal(status)) {
  clearInterval(ticker);
  ctx.follower.stop();
}
