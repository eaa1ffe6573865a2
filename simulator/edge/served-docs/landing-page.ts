// The page at `/`: what this server is and where to go next (the reference, the contract, the
// control API, a payment to pay), for someone who opened the base URL in a browser.
import { html } from 'hono/html';

export interface LandingInfo {
  version: string;
  controlEnabled: boolean;
}

export function landingPage(info: LandingInfo) {
  const control = info.controlEnabled
    ? html`<li><a href="/control/v1/health">Control API</a> under <code>/control/v1</code>: clock, customer actions, merchants, reset (<code>stablepay trigger</code>, <code>stablepay reset</code>)</li>`
    : html`<li>The control API is off (<code>--no-control</code>).</li>`;
  return html`<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>stablepay simulator</title>
<style>body{font:16px/1.5 system-ui,sans-serif;max-width:44rem;margin:3rem auto;padding:0 1rem;color:#1b1b1f}code{background:#f1f1f4;padding:0 .25rem;border-radius:3px}button{font:inherit;padding:.4rem .9rem}</style></head>
<body>
<h1>stablepay simulator <small>${info.version}</small></h1>
<p>The stablecoin payment service API on your machine: merchant API under <code>/v1</code>, hosted payment pages under <code>/p</code>, signed webhooks on a virtual clock.</p>
<ul>
<li><a href="/docs">API reference</a> (rendered from the contract)</li>
<li>The contract: <a href="/openapi.yaml">openapi.yaml</a> · <a href="/openapi.json">openapi.json</a></li>
${control}
</ul>
<form method="post" action="/demo-payment"><button type="submit">Open a demo payment (25.00 USD)</button></form>
<p>Webhooks to a local URL: <code>stablepay listen --forward-to http://localhost:3000/webhooks</code>.</p>

</body>
</html>`;
}
