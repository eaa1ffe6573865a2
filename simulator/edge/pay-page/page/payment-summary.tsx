// Who is asking for how much, the status badge and the expiry countdown. The countdown's first
// value is rendered here from the server's virtual now; the browser keeps it ticking.
import type { CustomerPaymentView } from '../customer-view.ts';
import { describeRemaining, formatRemaining } from '../countdown.ts';

export function PaymentSummary(props: { payment: CustomerPaymentView; nowMs: number }) {
  const { payment } = props;
  const remaining = Math.max(0, Date.parse(payment.expiresAt) - props.nowMs);
  const heading = payment.title ?? `Payment to ${payment.merchantName ?? 'merchant'}`;
  return (
    <header class="summary">
      {payment.merchantName ? <p class="merchant">{payment.merchantName}</p> : null}
      <h1 id="payment-title">{heading}</h1>
      <p class="amount">
        <span id="fiat-amount">{payment.amount}</span> <span id="fiat-currency">{payment.currency}</span>
      </p>
      <dl class="facts">
        <div>
          <dt>Status</dt>
          <dd>
            <span id="status-badge" class={`badge badge-${payment.status.toLowerCase()}`}>
              {payment.status}
            </span>
          </dd>
        </div>
        <div id="expiry" hidden={payment.status !== 'ACTIVE'}>
          <dt>Expires in</dt>
          <dd>
            <time id="countdown" datetime={payment.expiresAt} aria-hidden="true">
              {formatRemaining(remaining)}
            </time>
            <span id="countdown-words" class="visually-hidden">
              {describeRemaining(remaining)}
            </span>
          </dd>
        </div>
      </dl>
    </header>
  );
}
