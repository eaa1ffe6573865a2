// Step 1: simulated social login (an e-mail gives an embedded smart-account wallet) or an injected
// EIP-1193 wallet. The wallet button starts disabled; the script enables it when it finds one.
export function SignInStep() {
  return (
    <section class="step" aria-labelledby="step-sign-in">
      <h2 id="step-sign-in">1. Sign in</h2>
      <div id="sign-in-options">
        <form id="email-form" class="email-form" novalidate>
          <label for="email">Email</label>
          <div class="row">
            <input id="email" name="email" type="email" autocomplete="email" inputmode="email" required aria-describedby="email-help" />
            <button id="email-button" type="submit">
              Continue with email
            </button>
          </div>
          <p id="email-help" class="hint">
            Simulated social login: the same email always opens the same wallet.
          </p>
        </form>
        <p class="divider">or</p>
        <button id="wallet-button" type="button" class="secondary" disabled aria-describedby="wallet-help">
          Connect browser wallet
        </button>
        <p id="wallet-help" class="hint">
          Looking for a browser wallet…
        </p>
      </div>
      <p id="sign-in-error" class="field-error" role="alert" hidden></p>
      <p id="signed-in" class="signed-in" hidden></p>
    </section>
  );
}
