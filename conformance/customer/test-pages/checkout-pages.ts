// A small HTTP server of the suite's own that serves test checkout pages on 127.0.0.1 (any free port): `add()` registers
// a checkout (mechanism, pair, recipients) and returns its page URL `/p/<id>`; the page asks `POST /p/<id>/next` for
// each wallet action (checkout-steps.ts). With `fallback`, an unknown id gets a page of that mechanism offering every
// pair of the chain table: a target's paymentUrl can point here (`--pay-url`), e.g. a page that never settles.
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import type { Address } from 'viem';
import type { PrivateKeyAccount } from 'viem/accounts';
import type { ChainsFile } from '@stablepay/chains/chains-file';
import { CheckoutSteps, type CheckoutRecord, type Mechanism, type TestCheckout } from './checkout-steps.ts';
import { checkoutPageHtml } from './page-html.ts';

export interface CheckoutPages {
  origin: string;
  /** Registers a checkout; returns its page URL. */
  add(checkout: TestCheckout): string;
  /** What happened on a checkout's page so far. */
  record(url: string): CheckoutRecord | undefined;
  close(): Promise<void>;
}

export interface CheckoutPagesOptions {
  /** The suite's chains (RPC URLs, tokens, ERC-4337 contracts); absent for a page that moves no money. */
  chains?: ChainsFile;
  splitter?: Address;
  /** The service's own account (funded by the caller). */
  service?: PrivateKeyAccount;
  /** The mechanism of a page whose id was never added (every pair offered). */
  fallback?: Mechanism;
}

interface ChainTable {
  chains: { name: string; chainId: number; tokens: Record<string, unknown> }[];
}

/** Every pair of the spec's chain table (fixtures/chains.json). */
function tablePairs(): { chainId: number; chainName: string; token: string }[] {
  const table = JSON.parse(readFileSync(fileURLToPath(new URL('../../../fixtures/chains.json', import.meta.url)), 'utf8')) as ChainTable;
  return table.chains.flatMap((c) => Object.keys(c.tokens).map((token) => ({ chainId: c.chainId, chainName: c.name, token })));
}

async function readJson(req: IncomingMessage): Promise<Record<string, unknown>> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return JSON.parse(Buffer.concat(chunks).toString('utf8') || '{}') as Record<string, unknown>;
}

function reply(res: ServerResponse, status: number, body: unknown, type = 'application/json'): void {
  res.writeHead(status, { 'content-type': `${type}; charset=utf-8`, 'cache-control': 'no-store' });
  res.end(type === 'application/json' ? JSON.stringify(body) : String(body));
}

export async function startCheckoutPages(options: CheckoutPagesOptions = {}): Promise<CheckoutPages> {
  const checkouts = new Map<string, CheckoutSteps>();
  const pairs = tablePairs();

  const stepsFor = (id: string): CheckoutSteps | undefined => {
    let steps = checkouts.get(id);
    if (!steps && options.fallback) {
      steps = new CheckoutSteps({ mechanism: options.fallback, chainId: 0, token: 'USDC', recipients: [] }, context(0, 'USDC'), id);
      checkouts.set(id, steps);
    }
    return steps;
  };

  function context(chainId: number, token: 'USDC' | 'USDT') {
    const chain = options.chains?.chains.find((c) => c.chainId === chainId);
    return {
      rpcUrl: chain?.rpcUrl ?? 'http://127.0.0.1:1',
      tokenAddress: (chain?.tokens[token]?.address ?? '0x0000000000000000000000000000000000000000') as Address,
      splitter: options.splitter ?? '0x0000000000000000000000000000000000000000',
      entryPoint: options.chains?.entryPoint ?? '0x0000000000000000000000000000000000000000',
      accountFactory: options.chains?.accountFactory ?? '0x0000000000000000000000000000000000000000',
      service: options.service!,
    };
  }

  const server = createServer((req, res) => {
    const match = /^\/p\/([A-Za-z0-9-]+)(\/next)?$/.exec(new URL(req.url ?? '/', 'http://pages').pathname);
    const steps = match ? stepsFor(match[1]!) : undefined;
    if (!match || !steps) return reply(res, 404, 'no such checkout', 'text/plain');
    if (!match[2]) {
      const offered =
        steps.checkout.chainId === 0
          ? pairs
          : pairs.filter((p) => p.chainId === steps.checkout.chainId && p.token === steps.checkout.token);
      return reply(res, 200, checkoutPageHtml({ title: `Test checkout (${steps.checkout.mechanism})`, pairs: offered }), 'text/html');
    }
    if (req.method !== 'POST') return reply(res, 405, { error: 'POST only' });
    readJson(req)
      .then(async (body) => {
        const pair = body.pair as { chainId?: number; token?: string } | null;
        if (steps.checkout.chainId !== 0 && (pair?.chainId !== steps.checkout.chainId || pair?.token !== steps.checkout.token))
          throw new Error('this checkout is paid on another pair');
        reply(res, 200, await steps.next(body.account as Address, body.result));
      })
      .catch((error: unknown) => reply(res, 400, { error: (error as Error).message.split('\n')[0] }));
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    origin,
    add(checkout) {
      const id = randomUUID();
      checkouts.set(id, new CheckoutSteps(checkout, context(checkout.chainId, checkout.token), id));
      return `${origin}/p/${id}`;
    },
    record: (url) => checkouts.get(url.split('/').pop() ?? '')?.record,
    close: () =>
      new Promise((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
