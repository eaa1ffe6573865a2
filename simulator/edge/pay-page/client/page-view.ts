// Puts a payment state on the page: badge, live status message, countdown, outcome details and
// whether the checkout controls may be used at all.
import type { ClockSync } from '../countdown.ts';
import { describeRemaining, formatRemaining, remainingMs } from '../countdown.ts';
import type { CustomerPaymentView } from '../customer-view.ts';
import type { StatusText } from '../status-text.ts';
import { isPayable, statusText } from '../status-text.ts';
import { byId, setText, show } from './dom.ts';

/** Announce a message in the live region (payment status or a step's progress or error). */
export function announce(text: StatusText): void {
  const region = byId('status');
  region.className = `status status-${text.tone}`;
  setText('status-headline', text.headline);
  setText('status-detail', text.detail);
}

/** `announceStatus`: say the status in the live region (only when it changed, so a poll never
 * talks over a progress or error message of the same status). */
export function renderPayment(payment: CustomerPaymentView, announceStatus: boolean): void {
  const badge = byId('status-badge');
  badge.textContent = payment.status;
  badge.className = `badge badge-${payment.status.toLowerCase()}`;
  byId('pay-page').dataset.status = payment.status;
  if (announceStatus) announce(statusText(payment));
  show('expiry', payment.status === 'ACTIVE');
  show('outcome', payment.txHash !== null);
  setText('tx-hash', payment.txHash ?? '');
  setText('paid-amount', payment.amountToken && payment.token ? `${payment.amountToken} ${payment.token}` : '');
  setText('gas-actual', payment.gasActual && payment.token ? `${payment.gasActual} ${payment.token}` : '');
  show('return', payment.redirectUrl !== null);
  if (payment.redirectUrl) byId<HTMLAnchorElement>('return-link').href = payment.redirectUrl;
  if (!isPayable(payment.status)) byId<HTMLFieldSetElement>('checkout').disabled = true;
}

/** Redraws the countdown; returns the time left so the caller can refresh state at zero. */
export function renderCountdown(expiresAtMs: number, sync: ClockSync): number {
  const left = remainingMs(expiresAtMs, sync, Date.now());
  setText('countdown', formatRemaining(left));
  setText('countdown-words', describeRemaining(left));
  return left;
}
