// Renders the hosted page for one payment (and the page for an unknown link). Everything the
// script needs to start lives in data- attributes of <main>, so no inline script is needed.
import { raw } from 'hono/html';
import type { CheckoutPair } from '../../../core/checkout/index.ts';
import type { PaymentState } from '../customer-view.ts';
import { isPayable } from '../status-text.ts';
import { Document } from './document.tsx';
import { PairStep } from './pair-step.tsx';
import { PaymentSummary } from './payment-summary.tsx';
import { PayStep } from './pay-step.tsx';
import { SignInStep } from './sign-in-step.tsx';
import { Outcome, StatusPanel } from './status-panel.tsx';

const DOCTYPE = raw('<!doctype html>');

export interface PayPageProps {
  state: PaymentState;
  pairs: CheckoutPair[];
  checkoutAvailable: boolean;
}

function noPairsExplanation(props: PayPageProps): string | null {
  if (!isPayable(props.state.payment.status)) return 'This payment can no longer be paid.';
  if (!props.checkoutAvailable) return 'This simulator run has no chains attached, so the page cannot take a payment.';
  return null;
}

export function renderPayPage(props: PayPageProps) {
  const { payment, now } = props.state;
  const payable = isPayable(payment.status) && props.checkoutAvailable && props.pairs.length > 0;
  return (
    <>
      {DOCTYPE}
      <Document title={`${payment.title ?? 'Payment'} · ${payment.amount} ${payment.currency}`} withScript={true}>
        <main
          id="pay-page"
          class="card"
          data-payment-id={payment.id}
          data-status={payment.status}
          data-now={now}
          data-expires-at={payment.expiresAt}
        >
          <PaymentSummary payment={payment} nowMs={Date.parse(now)} />
          <StatusPanel payment={payment} />
          <Outcome payment={payment} />
          <fieldset id="checkout" class="checkout" disabled={!payable}>
            <legend class="visually-hidden">Checkout</legend>
            <SignInStep />
            <PairStep pairs={props.pairs} explanation={noPairsExplanation(props)} />
            <PayStep status={payment.status} />
          </fieldset>
          <noscript>
            <p class="hint">The payment page needs JavaScript to sign the payment in your browser.</p>
          </noscript>
        </main>
      </Document>
    </>
  );
}

export function renderNotFoundPage() {
  return (
    <>
      {DOCTYPE}
      <Document title="Payment not found" withScript={false}>
        <main class="card">
          <h1>Payment not found</h1>
          <p>This payment link does not exist. Check the link you were given, or ask the merchant for a new one.</p>
        </main>
      </Document>
    </>
  );
}
