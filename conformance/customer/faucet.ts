// The suite's faucet for its customer: every customer account gets the chain's native coin (for gas) and each token of
// the chain before its page can use that chain, as a shopper's wallet holds money before checkout. Tokens are real
// transfers (Transfer events, real balances) from a funder account the suite creates for the run; the funder gets its
// tokens once per chain from the issuers' keys the chains file hands out (USDC's minter mints; the USDT owner mints
// with whichever of the replicas' entry points its contract has: mint(to, amount), issue(amount), mint(amount)).
// Native coin is set with anvil_setBalance: the chains are the suite's own Anvil processes. A forked chain keeps its
// real issuers, so there only the native coin is funded.
import { createClient, encodeFunctionData, http, parseAbi, parseUnits, type Address, type Client, type Hex } from 'viem';
import { generatePrivateKey, privateKeyToAccount, type PrivateKeyAccount } from 'viem/accounts';
import { estimateGas, getGasPrice, getTransactionReceipt, sendTransaction } from 'viem/actions';
import type { ChainsFile, ChainsFileChain } from '@stablepay/chains/chains-file';

const ABI = parseAbi([
  'function mint(address to, uint256 amount)',
  'function issue(uint256 amount)',
  'function mint(uint256 amount)',
  'function transfer(address to, uint256 amount)',
]);

export interface FaucetAmounts {
  /** Native coin per customer account, in wei (10 ETH, POL or BNB: far more than any checkout's gas). */
  nativeWei: bigint;
  /** Whole tokens per customer account and token (more than any payment the suite makes). */
  tokens: bigint;
  /** Whole tokens the funder gets per chain and token, once. */
  funderTokens: bigint;
}

export const FAUCET_AMOUNTS: FaucetAmounts = { nativeWei: 10n * 10n ** 18n, tokens: 10_000n, funderTokens: 1_000_000_000n };

const RECEIPT_TIMEOUT_MS = 15_000;
/** Sends of one call tried in all while other senders of the same key take its nonce. */
const NONCE_ATTEMPTS = 8;

export interface CustomerFaucet {
  /** Funds `address` on `chainId`; resolves with a summary, rejects with one sentence. */
  fund(chainId: number, address: Address): Promise<string>;
}

interface FundedChain {
  chain: ChainsFileChain;
  client: Client;
  funder: PrivateKeyAccount;
  /** The funder's transactions one after another (its nonce). */
  queue: Promise<unknown>;
}

async function rpc(url: string, method: string, params: unknown[]): Promise<unknown> {
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
  });
  const body = (await response.json()) as { result?: unknown; error?: { message: string } };
  if (body.error) throw new Error(`${method}: ${body.error.message}`);
  return body.result;
}

/** Sends one call from `from` (legacy, the chain's gas price) and waits for a successful receipt. */
async function send(client: Client, from: PrivateKeyAccount, to: Address, data: Hex, purpose: string): Promise<Hex> {
  const gasPrice = await getGasPrice(client);
  for (let attempt = 1; ; attempt++) {
    try {
      const hash = await sendTransaction(client, { account: from, chain: null, type: 'legacy', gasPrice, to, data } as never);
      const deadline = Date.now() + RECEIPT_TIMEOUT_MS;
      for (;;) {
        const receipt = await getTransactionReceipt(client, { hash }).catch(() => null);
        if (receipt) {
          if (receipt.status !== 'success') throw new Error(`${purpose}: transaction ${hash} reverted`);
          return hash;
        }
        if (Date.now() > deadline)
          throw new Error(`${purpose}: no receipt for ${hash} within ${RECEIPT_TIMEOUT_MS / 1000} s (is the chain mining?)`);
        await new Promise((r) => setTimeout(r, 25));
      }
    } catch (error) {
      // An issuer's key is shared with the implementation (the simulator funds with it): a nonce taken in between is
      // retried, after a pause that grows and differs per attempt, so two senders that collided once do not collide
      // again in step (three immediate retries all lost under load: a repeat run's customer went unfunded).
      const message = (error as Error).message;
      if (attempt < NONCE_ATTEMPTS && /nonce|already known|replacement/i.test(message)) {
        await new Promise((r) => setTimeout(r, 40 * attempt + Math.floor(Math.random() * 60)));
        continue;
      }
      throw error;
    }
  }
}

/** Whether the call would succeed (the replicas differ in their minting entry point). */
async function works(client: Client, from: Address, to: Address, data: Hex): Promise<boolean> {
  try {
    await estimateGas(client, { account: from, to, data });
    return true;
  } catch {
    return false;
  }
}

export function createFaucet(chains: ChainsFile, amounts: FaucetAmounts = FAUCET_AMOUNTS): CustomerFaucet {
  const ready = new Map<number, Promise<FundedChain>>();

  async function prepare(chain: ChainsFileChain): Promise<FundedChain> {
    const client = createClient({ transport: http(chain.rpcUrl), pollingInterval: 50 });
    const funder = privateKeyToAccount(generatePrivateKey());
    await rpc(chain.rpcUrl, 'anvil_setBalance', [funder.address, `0x${(1000n * 10n ** 18n).toString(16)}`]);
    if (chain.forkOf === null) {
      for (const [symbol, token] of Object.entries(chain.tokens)) {
        const units = parseUnits(String(amounts.funderTokens), token.decimals);
        const issuer = privateKeyToAccount(symbol === 'USDC' ? chains.usdcRoles.minter.privateKey : chains.usdtOwner.privateKey);
        const mintTo = encodeFunctionData({ abi: ABI, functionName: 'mint', args: [funder.address, units] });
        const purpose = `fund the suite's faucet with ${symbol} on chain ${chain.chainId}`;
        if (await works(client, issuer.address, token.address, mintTo)) {
          await send(client, issuer, token.address, mintTo, purpose);
          continue;
        }
        // Ethereum's Tether token issues to its owner, BSC's mints to its owner: then the owner transfers.
        const issue = encodeFunctionData({ abi: ABI, functionName: 'issue', args: [units] });
        const mintToOwner = encodeFunctionData({ abi: ABI, functionName: 'mint', args: [units] });
        const toOwner = (await works(client, issuer.address, token.address, issue)) ? issue : mintToOwner;
        await send(client, issuer, token.address, toOwner, purpose);
        await send(
          client,
          issuer,
          token.address,
          encodeFunctionData({ abi: ABI, functionName: 'transfer', args: [funder.address, units] }),
          purpose,
        );
      }
    }
    return { chain, client, funder, queue: Promise.resolve() };
  }

  /**
   * The first customer prepares every chain at once: before any page of the run has paid, so the issuers' keys (which
   * the implementation may use too) are used while nobody else is sending with them.
   */
  function chainReady(chainId: number): Promise<FundedChain> {
    if (ready.size === 0) {
      for (const chain of chains.chains) {
        const prepared = prepare(chain);
        prepared.catch(() => undefined);
        ready.set(chain.chainId, prepared);
      }
    }
    const prepared = ready.get(chainId);
    if (!prepared) return Promise.reject(new Error(`chain ${chainId} is not in the chains file`));
    return prepared;
  }

  return {
    async fund(chainId, address) {
      const funded = await chainReady(chainId);
      const { chain, client, funder } = funded;
      await rpc(chain.rpcUrl, 'anvil_setBalance', [address, `0x${amounts.nativeWei.toString(16)}`]);
      const parts = [`${amounts.nativeWei / 10n ** 18n} ${chain.nativeSymbol}`];
      if (chain.forkOf !== null) return `${parts[0]} (a forked chain: no tokens, the suite holds no issuer key there)`;
      const run = async () => {
        for (const [symbol, token] of Object.entries(chain.tokens)) {
          const data = encodeFunctionData({
            abi: ABI,
            functionName: 'transfer',
            args: [address, parseUnits(String(amounts.tokens), token.decimals)],
          });
          await send(client, funder, token.address, data, `fund the customer with ${symbol} on chain ${chainId}`);
          parts.push(`${amounts.tokens} ${symbol}`);
        }
      };
      const next = funded.queue.catch(() => undefined).then(run);
      funded.queue = next;
      await next;
      return parts.join(', ');
    },
  };
}
