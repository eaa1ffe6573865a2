// What the page says about each payment status. Shared by the server render and the browser, so
// the first paint and every later update use the same words.
import type { CustomerPaymentView } from './customer-view.ts';

export type StatusTone = 'waiting' | 'busy' | 'success' | 'error' | 'closed';

export interface StatusText {
  tone: StatusTone;
  headline: string;
  detail: string;
}

export function statusText(p: Pick<CustomerPaymentView, 'status' | 'chainName' | 'token' | 'error'>): StatusText {
  switch (p.status) {
    case 'ACTIVE':
      return { tone: 'waiting', headline: 'Awaiting payment', detail: 'Sign in, choose a network and token, then pay.' };
    case 'PROCESSING':
      return { tone: 'busy', headline: 'Payment submitted', detail: `Waiting for confirmation on ${p.chainName ?? 'the network'}…` };
    case 'SUCCESSFUL':
      return {
        tone: 'success',
        headline: 'Payment complete',
        detail: `Paid in ${p.token ?? 'stablecoin'} on ${p.chainName ?? 'chain'}. Thank you!`,
      };
    case 'FAILED':
      return {
        tone: 'error',
        headline: 'Payment failed',
        detail: p.error ? `${p.error.message} (${p.error.code})` : 'The transaction did not go through.',
      };
    case 'EXPIRED':
      return { tone: 'closed', headline: 'Payment expired', detail: 'This payment link has expired and can no longer be paid.' };
    case 'CANCELLED':
      return { tone: 'closed', headline: 'Payment cancelled', detail: 'The merchant cancelled this payment; it can no longer be paid.' };
  }
}

/** Only an ACTIVE payment takes a new payment; every other status keeps the controls disabled. */
export function isPayable(status: CustomerPaymentView['status']): boolean {
  return status === 'ACTIVE';
}

/** Statuses after which nothing changes any more: the page stops polling. */
export function isFinal(status: CustomerPaymentView['status']): boolean {
  return status === 'SUCCESSFUL' || status === 'FAILED' || status === 'EXPIRED' || status === 'CANCELLED';
}

/** The line under the Pay button: what is still missing, or why there is nothing left to do. */
export function payHint(input: { status: CustomerPaymentView['status']; paying: boolean; signedIn: boolean; picked: boolean }): string {
  if (input.paying || input.status === 'PROCESSING') return 'Payment in progress…';
  if (input.status === 'SUCCESSFUL') return 'This payment is complete.';
  if (input.status !== 'ACTIVE') return 'This payment can no longer be paid.';
  if (!input.signedIn) return 'Sign in first (step 1).';
  if (!input.picked) return 'Choose a network and token (step 2).';
  return 'You sign one transaction; the network fee is paid in the same token.';
}
