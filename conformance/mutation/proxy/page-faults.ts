// Faults of the hosted page (issue 25, class 4): only a customer in a browser sees them, so they run black-box only
// (black-box-proxy.ts); the white-box self-test has no browser and no chains.
import type { ProxyFault } from './response-faults.ts';

const PAGE_PATH = /^\/p\/[^/]+$/;

export const PAGE_FAULTS: ProxyFault[] = [
  {
    name: 'page-offers-pair-outside-table',
    class: 'page',
    level: 'documented',
    breaks: ['CHAIN-PAIRS-ONLY-FROM-TABLE'],
    description: "The hosted page also offers Base · USDT, a pair outside the spec's chain table (and outside any payment's accepted set)",
    response: (r) => {
      if (r.method !== 'GET' || !PAGE_PATH.test(r.path) || !/^text\/html/i.test(r.headers['content-type'] ?? '')) return;
      const extra =
        '<label class="pair" for="pair-8453-USDT"><input type="radio" name="pair" id="pair-8453-USDT" value="8453:USDT" data-chain-name="Base" /><span class="pair-name">Base · USDT</span></label>';
      r.body = r.body.replace('</fieldset>', `${extra}</fieldset>`);
    },
  },
];
