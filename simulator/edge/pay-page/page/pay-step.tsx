// Step 3: the quote for the picked pair and the one button that signs and submits the payment.
import type { CustomerPaymentView } from '../customer-view.ts';
import { payHint } from '../status-text.ts';

export function PayStep(props: { status: CustomerPaymentView['status'] }) {
  return (
    <section class="step" aria-labelledby="step-pay">
      <h2 id="step-pay">3. Pay</h2>
      <dl id="quote" class="quote" hidden>
        <dt>Amount</dt>
        <dd id="quote-amount"></dd>
        <dt id="quote-gas-label">Network fee (estimate)</dt>
        <dd id="quote-gas"></dd>
      </dl>
      <button id="pay-button" type="button" class="primary" disabled aria-describedby="pay-hint">
        Pay
      </button>
      <p id="pay-hint" class="hint">
        {payHint({ status: props.status, paying: false, signedIn: false, picked: false })}
      </p>
    </section>
  );
}
