// Faults of the hosted page (issue 25, classes 4 and 5): only a customer in a browser sees them, so they run black-box
// only (black-box-proxy.ts); the white-box self-test has no browser and no chains.
import type { ProxyFault } from './response-faults.ts';

const PAGE_PATH = /^\/p\/[^/]+$/;
/** Our page's own state feed (its markup and feeds are not the suite's business: only this fault knows them). */
const STATE_PATH = /^\/p\/[^/]+\/state$/;

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

  {
    name: 'open-page-never-learns-cancel',
    class: 'page',
    level: 'documented',
    breaks: ['PAY-STATE-CANCELLED-URL-CLOSED'],
    description:
      'An open page is never told of a cancel: it never shows "cancelled" (an assumed wording) and keeps its pay action enabled, so the customer can still try to pay',
    response: (r) => {
      const state = r.json as { payment?: { status?: unknown } } | undefined;
      if (r.method === 'GET' && STATE_PATH.test(r.path) && state?.payment?.status === 'CANCELLED') state.payment.status = 'ACTIVE';
    },
  },
];
