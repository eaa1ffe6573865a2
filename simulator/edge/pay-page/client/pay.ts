// Steps 2 and 3 in the browser: pick a pair, then prepare, sign ONE user operation and submit it
// through the web3 proxy. The payment's own progress then arrives through the state polls.
import type { Hex } from 'viem';
import { payHint } from '../status-text.ts';
import type { CheckoutContext } from './checkout-context.ts';
import { errorMessage } from './checkout-context.ts';
import { byId, setText, show } from './dom.ts';
import { sendUserOperation } from './page-api.ts';
import { announce } from './page-view.ts';
import { signUserOperationHash } from './signer.ts';

export function wirePairPicker(ctx: CheckoutContext): void {
  document.querySelectorAll<HTMLInputElement>('input[name="pair"]').forEach((input) => {
    input.addEventListener('change', () => {
      if (!input.checked) return;
      const [chainId, token] = input.value.split(':');
      ctx.pair = {
        chainId: Number(chainId),
        token: token ?? '',
        chainName: input.dataset.chainName ?? '',
        amountToken: input.dataset.amount ?? '',
        gasEstimateToken: input.dataset.gas ?? '',
      };
      showQuote(ctx.pair.amountToken, `≈ ${ctx.pair.gasEstimateToken}`, ctx.pair.token, 'Network fee (estimate)');
      ctx.refreshPayButton();
    });
  });
}

function showQuote(amount: string, gas: string, token: string, gasLabel: string): void {
  setText('quote-amount', `${amount} ${token}`);
  setText('quote-gas-label', gasLabel);
  setText('quote-gas', `${gas} ${token}`);
  show('quote', true);
}

export function refreshPayButton(ctx: CheckoutContext): void {
  const button = byId<HTMLButtonElement>('pay-button');
  const ready = ctx.session !== undefined && ctx.pair !== undefined && ctx.payment?.status === 'ACTIVE';
  button.disabled = !ready && !ctx.paying;
  button.setAttribute('aria-disabled', String(ctx.paying));
  button.textContent = ctx.pair ? `Pay ${ctx.pair.amountToken} ${ctx.pair.token} on ${ctx.pair.chainName}` : 'Pay';
  const hint = payHint({
    status: ctx.payment?.status ?? 'ACTIVE',
    paying: ctx.paying,
    signedIn: ctx.session !== undefined,
    picked: ctx.pair !== undefined,
  });
  setText('pay-hint', hint);
}

export function wirePayButton(ctx: CheckoutContext): void {
  byId<HTMLButtonElement>('pay-button').addEventListener('click', async () => {
    const { session, pair } = ctx;
    if (ctx.paying || !session || !pair) return;
    ctx.paying = true;
    ctx.refreshPayButton();
    try {
      announce({ tone: 'busy', headline: 'Preparing your payment', detail: `Building one transaction on ${pair.chainName}…` });
      const prepared = await ctx.api.prepare(session.checkoutToken, { chainId: pair.chainId, token: pair.token });
      // The prepared operation approves the most the paymaster may take; the actual fee is lower.
      showQuote(prepared.amountToken, prepared.gasEstimateToken, pair.token, 'Network fee (at most)');
      announce({
        tone: 'busy',
        headline: session.signer.kind === 'injected' ? 'Confirm in your wallet' : 'Signing',
        detail: `Signing the payment of ${prepared.amountToken} ${pair.token}…`,
      });
      const signature = await signUserOperationHash(session.signer, prepared.userOpHash as Hex);
      announce({ tone: 'busy', headline: 'Submitting', detail: `Sending the signed transaction to ${pair.chainName}…` });
      await sendUserOperation({
        chainId: pair.chainId,
        checkoutToken: session.checkoutToken,
        userOperation: { ...prepared.userOperation, signature },
        entryPoint: prepared.entryPoint,
      });
      ctx.submitted = true;
      byId<HTMLFieldSetElement>('checkout').disabled = true;
      announce({ tone: 'busy', headline: 'Payment submitted', detail: `Waiting for confirmation on ${pair.chainName}…` });
    } catch (error) {
      announce({ tone: 'error', headline: 'Payment not sent', detail: errorMessage(error) });
    } finally {
      ctx.paying = false;
      ctx.refreshPayButton();
      // Either way the payment's status may have moved (PROCESSING, or FAILED on a bundler rejection).
      ctx.follower?.hurry();
    }
  });
}
