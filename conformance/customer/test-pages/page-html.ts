// The suite's own test checkout page: just what the page contract asks (a "Connect wallet" button, one radio per
// chain/token pair named "<chain> · <token>", a "Pay" button, a status region) and a loop that asks its server for
// the next wallet action (send a transaction, sign typed data, sign a message), performs it with window.ethereum and
// posts the result back, until the server says the payment is complete (or forever, for a page that never settles).
// Plain JavaScript in a string: nothing is bundled.

const SCRIPT = `
const id = location.pathname.split('/').pop();
const status = document.getElementById('status');
const pay = document.getElementById('pay');
const say = (text) => { status.textContent = text; };
let account = null;
let pair = null;
const post = async (path, body) => {
  const response = await fetch('/p/' + id + path, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  const answer = await response.json();
  if (!response.ok) throw new Error(answer.error || ('HTTP ' + response.status));
  return answer;
};
const refresh = () => { pay.disabled = !(account && pair); };
document.getElementById('connect').addEventListener('click', async () => {
  try {
    [account] = await window.ethereum.request({ method: 'eth_requestAccounts' });
    document.getElementById('account').textContent = 'Connected ' + account;
    refresh();
  } catch (error) { say('Could not connect: ' + error.message); }
});
for (const radio of document.querySelectorAll('input[name=pair]')) {
  radio.addEventListener('change', async () => {
    pair = { chainId: Number(radio.dataset.chain), token: radio.dataset.token };
    await window.ethereum.request({ method: 'wallet_switchEthereumChain', params: [{ chainId: '0x' + pair.chainId.toString(16) }] });
    refresh();
  });
}
pay.addEventListener('click', async () => {
  pay.disabled = true;
  say('Waiting for your wallet');
  try {
    let result = null;
    for (;;) {
      const next = await post('/next', { account, pair, result });
      if (next.kind === 'done') { say('Payment complete. Transaction ' + next.txHash); return; }
      if (next.kind === 'pending') { say('Payment submitted'); return; }
      if (next.kind === 'send') result = await window.ethereum.request({ method: 'eth_sendTransaction', params: [{ from: account, ...next.tx }] });
      else if (next.kind === 'signTypedData') result = await window.ethereum.request({ method: 'eth_signTypedData_v4', params: [account, JSON.stringify(next.typedData)] });
      else if (next.kind === 'personalSign') result = await window.ethereum.request({ method: 'personal_sign', params: [next.message, account] });
      say('Payment submitted');
    }
  } catch (error) { say('Payment failed: ' + error.message); }
});
`;

const escapeHtml = (text: string): string => text.replace(/[&<>"]/g, (c) => `&#${c.charCodeAt(0)};`);

export function checkoutPageHtml(input: { title: string; pairs: { chainId: number; chainName: string; token: string }[] }): string {
  const radios = input.pairs
    .map(
      (p) =>
        `<label><input type="radio" name="pair" data-chain="${p.chainId}" data-token="${escapeHtml(p.token)}"> ${escapeHtml(p.chainName)} · ${escapeHtml(p.token)}</label><br>`,
    )
    .join('\n');
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(input.title)}</title></head><body>
<h1>${escapeHtml(input.title)}</h1>
<button id="connect">Connect wallet</button> <span id="account"></span>
<fieldset><legend>Network and token</legend>
${radios}
</fieldset>
<button id="pay" disabled>Pay</button>
<div id="status" role="status" aria-live="polite"></div>
<script type="module">${SCRIPT}</script>
</body></html>`;
}
