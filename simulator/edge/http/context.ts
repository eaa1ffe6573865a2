// Variables the auth middleware puts on every authenticated /v1 request.
import type { Context } from 'hono';

export interface AuthVariables {
  /** Merchant that owns the API key used for this request. */
  merchantId: string;
  /** The API key record's id (never the key itself). */
  apiKeyId: string;
  /** Set when the caller used a checkout token (ct_...) instead of an API key (web3 proxy only). */
  checkoutToken?: string;
}

export type AppEnv = { Variables: AuthVariables };
export type AppContext = Context<AppEnv>;
