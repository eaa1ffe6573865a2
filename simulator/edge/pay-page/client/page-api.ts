// The browser's calls: the page's own JSON endpoints under /p/:id and the web3 proxy, which takes
// the checkout token as its Bearer credential. Errors carry the server's message for the page.
import type { ErrorBody } from '@stablepay/contract/types';
import type { PreparedUserOperation } from '../../../core/checkout/index.ts';
import type { PaymentState } from '../customer-view.ts';

export class PageApiError extends Error {
  constructor(
    message: string,
    readonly status: number,
  ) {
    super(message);
    this.name = 'PageApiError';
  }
}

async function call<T>(url: string, init: RequestInit = {}): Promise<T> {
  let response: Response;
  try {
    response = await fetch(url, {
      ...init,
      headers: { accept: 'application/json', ...(init.body ? { 'content-type': 'application/json' } : {}), ...init.headers },
    });
  } catch {
    throw new PageApiError('The payment service cannot be reached. Check your connection and try again.', 0);
  }
  const body = (await response.json().catch(() => ({}))) as T & Partial<ErrorBody>;
  if (!response.ok) {
    const detail = body.errors?.[0]?.message;
    throw new PageApiError(detail ?? body.message ?? `Request failed with HTTP ${response.status}`, response.status);
  }
  return body;
}

export function createPageApi(paymentId: string) {
  const base = `/p/${encodeURIComponent(paymentId)}`;
  const post = <T>(path: string, body: unknown, checkoutToken?: string) =>
    call<T>(`${base}${path}`, {
      method: 'POST',
      body: JSON.stringify(body),
      headers: checkoutToken ? { authorization: `Bearer ${checkoutToken}` } : {},
    });
  return {
    state: () => call<PaymentState>(`${base}/state`, { cache: 'no-store' }),
    signIn: (email: string) =>
      post<{ checkoutToken: string; ownerAddress: `0x${string}`; ownerPrivateKey: `0x${string}` }>('/sign-in', { email }),
    connect: (ownerAddress: `0x${string}`) => post<{ checkoutToken: string }>('/connect', { ownerAddress }),
    prepare: (checkoutToken: string, pair: { chainId: number; token: string }) =>
      post<PreparedUserOperation>('/prepare', pair, checkoutToken),
  };
}

export type PageApi = ReturnType<typeof createPageApi>;

/** eth_sendUserOperation through {base_url}/v1/web3/{chainId}; resolves to the user operation hash. */
export async function sendUserOperation(input: {
  chainId: number;
  checkoutToken: string;
  userOperation: Record<string, unknown>;
  entryPoint: string;
}): Promise<string> {
  const reply = await call<{ result?: string; error?: { code: number; message: string } }>(`/v1/web3/${input.chainId}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${input.checkoutToken}` },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'eth_sendUserOperation', params: [input.userOperation, input.entryPoint] }),
  });
  if (reply.error) throw new PageApiError(`${reply.error.message} (code ${reply.error.code})`, 200);
  if (typeof reply.result !== 'string') throw new PageApiError('The bundler returned no user operation hash', 200);
  return reply.result;
}
