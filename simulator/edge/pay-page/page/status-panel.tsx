// The live region every status change is announced through, and the outcome details (transaction
// hash, return link) revealed once the payment settles.
import type { CustomerPaymentView } from '../customer-view.ts';
import { statusText } from '../status-text.ts';

export function StatusPanel(props: { payment: CustomerPaymentView }) {
  const text = statusText(props.payment);
  return (
    <div id="status" class={`status status-${text.tone}`} role="status" aria-live="polite" aria-atomic="true" tabindex={-1}>
      <p id="status-headline" class="status-headline">
        {text.headline}
      </p>
      <p id="status-detail">{text.detail}</p>
    </div>
  );
}

export function Outcome(props: { payment: CustomerPaymentView }) {
  const { payment } = props;
  return (
    <section id="outcome" class="outcome" aria-label="Payment details" hidden={payment.txHash === null}>
      <dl>
        <dt>Transaction hash</dt>
        <dd>
          <code id="tx-hash">{payment.txHash ?? ''}</code>
        </dd>
        <dt>Paid</dt>
        <dd id="paid-amount">{payment.amountToken && payment.token ? `${payment.amountToken} ${payment.token}` : ''}</dd>
        <dt>Network fee</dt>
        <dd id="gas-actual">{payment.gasActual && payment.token ? `${payment.gasActual} ${payment.token}` : ''}</dd>
      </dl>
      <p id="return" hidden={payment.redirectUrl === null}>
        <a id="return-link" href={payment.redirectUrl ?? '#'} target="_top">
          Return to {payment.merchantName ?? 'the merchant'}
        </a>
      </p>
    </section>
  );
}
