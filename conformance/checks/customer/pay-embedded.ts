// The link embedded in an iframe of another origin (a merchant's checkout page): the customer connects, picks a pair
// and pays inside the frame exactly as on the page itself, and the payment settles.
import type { CheckContext } from '../../context.ts';
import { defineCheck } from '../../registry.ts';
import { createPayment } from '../../support/payments.ts';
import { onPage, paymentWhen, signingRequests } from './browser-payment.ts';

export const payEmbedded = defineCheck({
  id: 'customer.pay-embedded',
  title: 'The payment page embedded in an iframe of another origin takes the payment as on its own',
  requirements: ['PAY-URL-EMBEDDABLE', 'PAY-HOSTED-ONE-TRANSACTION', 'PAGE-LOADS', 'PAGE-CONNECT-WALLET', 'PAGE-PAIR-CHOICE', 'PAGE-PAY-ACTION', 'PAGE-FINAL-STATE'],
  level: 'documented',
  needs: ['customer'],
  tags: ['customer', 'browser'],
  async run(ctx: CheckContext) {
    const created = await createPayment(ctx.api, { amount: '18.50', currency: 'EUR', title: 'Conformance embedded checkout' });
    ctx.requireStatus(created, 201, 'PAY-URL-EMBEDDABLE', 'Setup: create');
    const pair = { chainId: 137, token: 'USDC' };
    const result = await onPage(ctx, 'inside an iframe', () => ctx.customer.agent.pay(String(created.payment.paymentUrl), `${ctx.check.id}-${created.payment.id.slice(0, 8)}`, pair, undefined, true));
    ctx.addCases();
    ctx.expect(result.end.state === 'successful', 'PAY-URL-EMBEDDABLE', 'Paying inside an iframe did not succeed', `the framed page ended with "${result.end.text}"; screenshot ${result.screenshot}`);
    ctx.expect(signingRequests(result).length === 1, 'PAY-HOSTED-ONE-TRANSACTION', 'The framed page did not ask for exactly one signature', `wallet requests to sign or send: ${signingRequests(result).join(', ') || 'none'}`);
    const after = await paymentWhen(ctx, ctx.api, created.payment.id, (p) => p.status === 'SUCCESSFUL');
    ctx.expect(after.payment.status === 'SUCCESSFUL' && after.payment.chainId === pair.chainId, 'PAY-URL-EMBEDDABLE', 'The payment made inside an iframe is not SUCCESSFUL on its chain', `status ${after.payment.status}, chainId ${after.payment.chainId}`, after.exchange);
  },
});
