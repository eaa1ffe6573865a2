// Step 3: the quote for the picked pair and the one button that signs and submits the payment.
export function PayStep() {
  return (
    <section class="step" aria-labelledby="step-pay">
      <h2 id="step-pay">3. Pay</h2>
      <dl id="quote" class="quote" hidden>
        <dt>Amount</dt>
        <dd id="quote-amount"></dd>
        <dt>Network fee (estimate, paid in the token)</dt>
        <dd id="quote-gas"></dd>
      </dl>
      <button id="pay-button" type="button" class="primary" disabled aria-describedby="pay-hint">
        Pay
      </button>
      <p id="pay-hint" class="hint">
        Sign in and choose a network and token to pay.
      </p>
    </section>
  );
}
