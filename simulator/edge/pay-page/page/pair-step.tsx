// Step 2: only the (chain, token) pairs the checkout offers for this payment, each with its token
// amount at the current rate and the estimated network fee, which the customer pays in the token.
import type { CheckoutPair } from '../../../core/checkout/index.ts';

export const pairValue = (p: Pick<CheckoutPair, 'chainId' | 'token'>): string => `${p.chainId}:${p.token}`;

export function PairStep(props: { pairs: CheckoutPair[]; explanation: string | null }) {
  return (
    <section class="step" aria-labelledby="step-pair">
      <h2 id="step-pair" tabindex={-1}>
        2. Choose network and token
      </h2>
      {props.pairs.length === 0 ? (
        <p id="no-pairs" class="hint">
          {props.explanation ?? 'No network and token can take this payment.'}
        </p>
      ) : (
        <fieldset id="pair-fieldset" class="pairs">
          <legend class="visually-hidden">Network and token</legend>
          {props.pairs.map((p) => (
            <label class="pair" for={`pair-${p.chainId}-${p.token}`}>
              <input
                type="radio"
                name="pair"
                id={`pair-${p.chainId}-${p.token}`}
                value={pairValue(p)}
                data-chain-name={p.chainName}
                data-amount={p.amountToken}
                data-gas={p.gasEstimateToken}
              />
              <span class="pair-name">
                {p.chainName} · {p.token}
              </span>
              <span class="pair-amount">
                {p.amountToken} {p.token} + ≈{p.gasEstimateToken} {p.token} network fee
              </span>
            </label>
          ))}
        </fieldset>
      )}
    </section>
  );
}
