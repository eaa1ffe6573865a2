// Step 1 in the browser: e-mail sign-in (embedded wallet) or an injected EIP-1193 wallet.
import type { CheckoutContext } from './checkout-context.ts';
import { errorMessage, shortAddress } from './checkout-context.ts';
import { byId, setText, show } from './dom.ts';
import { connectInjected, embeddedSigner, injectedProvider } from './signer.ts';

export function wireSignIn(ctx: CheckoutContext): void {
  const form = byId<HTMLFormElement>('email-form');
  const email = byId<HTMLInputElement>('email');
  const emailButton = byId<HTMLButtonElement>('email-button');
  const walletButton = byId<HTMLButtonElement>('wallet-button');

  const fieldError = (message: string | null) => {
    setText('sign-in-error', message ?? '');
    show('sign-in-error', message !== null);
    if (message === null) email.removeAttribute('aria-invalid');
  };
  const signedIn = (text: string) => {
    fieldError(null);
    show('sign-in-options', false);
    setText('signed-in', text);
    show('signed-in', true);
    ctx.refreshPayButton();
    // Next step: the picker's heading, so keyboard and screen-reader users continue in order.
    byId('step-pair').focus();
  };

  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    const address = email.value.trim();
    if (!address.includes('@')) {
      email.setAttribute('aria-invalid', 'true');
      fieldError('Enter your email address, for example ann@example.com.');
      email.focus();
      return;
    }
    emailButton.disabled = true;
    try {
      const session = await ctx.api.signIn(address);
      ctx.session = { checkoutToken: session.checkoutToken, signer: embeddedSigner(address, session.ownerPrivateKey) };
      signedIn(`Signed in as ${address} · wallet ${shortAddress(session.ownerAddress)}`);
    } catch (error) {
      email.setAttribute('aria-invalid', 'true');
      fieldError(errorMessage(error));
      email.focus();
    } finally {
      emailButton.disabled = false;
    }
  });

  const detectWallet = () => {
    const provider = injectedProvider();
    walletButton.disabled = !provider;
    setText(
      'wallet-help',
      provider
        ? 'Signs with the Ethereum wallet in your browser.'
        : 'No browser wallet was found on this page (window.ethereum). Install a wallet extension, or continue with email.',
    );
  };
  detectWallet();
  // Some extensions inject after the page script has run.
  window.addEventListener('ethereum#initialized', detectWallet, { once: true });

  walletButton.addEventListener('click', async () => {
    const provider = injectedProvider();
    if (!provider) return detectWallet();
    walletButton.disabled = true;
    try {
      const signer = await connectInjected(provider);
      const { checkoutToken } = await ctx.api.connect(signer.address);
      ctx.session = { checkoutToken, signer };
      signedIn(`Connected browser wallet ${shortAddress(signer.address)}`);
    } catch (error) {
      fieldError(`Wallet connection failed: ${errorMessage(error)}`);
      walletButton.focus();
    } finally {
      walletButton.disabled = false;
    }
  });
}
