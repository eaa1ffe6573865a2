// The seam between POST /v1/web3/{chainId} (edge/v1/web3-routes.ts) and the chain layer's JSON-RPC proxy: the route
// hands each request's chainId, raw body and caller to a handler; attachChains supplies the proxy's.
import type { Web3ProxyResponse } from '@stablepay/chains/rpc-proxy';

/** Who sent the request: the merchant, and the checkout token when the page's customer did. */
export interface Web3Caller {
  merchantId: string;
  checkoutToken?: string;
}

/** Gets the chainId, the raw request body and the caller, returns the reply. */
export type Web3Handler = (chainId: number, rawBody: string, caller: Web3Caller) => Promise<Web3ProxyResponse>;
