// `stablepay/client`: a typed client of the payment service API (openapi-fetch over the types
// generated from openapi.yaml), and the contract's types. Paths, bodies and responses are checked
// by the compiler: `client.POST('/v1/payments', { body: { amount: '100', currency: 'USD' } })`.
import createClient, { type Client, type ClientOptions } from 'openapi-fetch';
import type { paths } from '@stablepay/contract/types';

export type StablepayPaths = paths;
export type StablepayClient = Client<paths>;

export interface StablepayClientOptions extends Omit<ClientOptions, 'baseUrl'> {
  /** The service's base URL, e.g. http://127.0.0.1:4000 for the simulator (paths start with /v1). */
  baseUrl: string;
  /** A pk_ key; sent as `Authorization: Bearer <key>` on every request. */
  apiKey: string;
}

export function createStablepayClient({ baseUrl, apiKey, headers, ...rest }: StablepayClientOptions): StablepayClient {
  return createClient<paths>({
    ...rest,
    baseUrl: baseUrl.replace(/\/+$/, ''),
    headers: { ...(headers as Record<string, string> | undefined), authorization: `Bearer ${apiKey}` },
  });
}

export type * from '@stablepay/contract/types';
