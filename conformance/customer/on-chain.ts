// What the suite does and reads on its own chains: blacklist an address with the USDC blacklister key of the chains
// file (so the payment's transaction reverts), and verify a settlement from its receipt: the transaction is real and
// succeeded, and the merchant's, every seller's and the fee collector's token balances moved by exactly the amounts
// the API reports, in the token's smallest unit.
// viem's actions are called as functions on a bare client (not createPublicClient's every-action client): the CLI
// is one bundle, and an action any subcommand uses is loaded by every subcommand that loads viem, `start` among them.
import { createClient, decodeEventLog, http, isAddressEqual, parseAbi, type Address, type Client, type Hex } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { getGasPrice, getTransaction, getTransactionReceipt, readContract, writeContract } from 'viem/actions';
import type { ChainsFile } from '@stablepay/chains/chains-file';
import { retryRefusedNonce } from '@stablepay/chains/nonce-retry';
import { type ReceiptReader, waitForReceipt } from '@stablepay/chains/send-transaction';

const TOKEN_ABI = parseAbi([
  'event Transfer(address indexed from, address indexed to, uint256 value)',
  'function balanceOf(address) view returns (uint256)',
  'function blacklist(address)',
  'function isBlacklisted(address) view returns (bool)',
]);

export function chainOf(chains: ChainsFile, chainId: number) {
  const chain = chains.chains.find((c) => c.chainId === chainId);
  if (!chain) throw new Error(`chain ${chainId} is not in the chains file`);
  return chain;
}

const clients = new Map<string, Client>();
function publicClient(rpcUrl: string): Client {
  let client = clients.get(rpcUrl);
  // Local chains answer at once: viem's default polling (every 4 s, and a block number cached as long) made a receipt
  // mined right away cost up to 4 s to see.
  if (!client) clients.set(rpcUrl, (client = createClient({ transport: http(rpcUrl), pollingInterval: 50 })));
  return client;
}

/** A chain's receipts and transactions by hash, for waitForReceipt. */
function receiptReader(chainId: number, rpcUrl: string): ReceiptReader {
  const client = publicClient(rpcUrl);
  return {
    chain: { id: chainId },
    getTransactionReceipt: (args) => getTransactionReceipt(client, args),
    getTransaction: (args) => getTransaction(client, args),
  };
}

/**
 * One blacklisting at a time per chain of one target instance (by RPC URL): the blacklister's nonce is that chain's.
 * Keyed by chain id it held the instances' blacklistings (each instance has chains of its own) behind one another.
 */
const queues = new Map<string, Promise<unknown>>();

/** Sends of one blacklisting in all while another sender of the key takes its nonce. */
const NONCE_ATTEMPTS = 8;

/** Blacklists `addresses` on the chain's USDC with the chains file's blacklister key; resolves once mined. */
export async function blacklistUsdc(chains: ChainsFile, chainId: number, addresses: Address[]): Promise<void> {
  const chain = chainOf(chains, chainId);
  const usdc = chain.tokens.USDC;
  if (!usdc) throw new Error(`chain ${chainId} has no USDC to blacklist on`);
  const account = privateKeyToAccount(chains.usdcRoles.blacklister.privateKey);
  const wallet = createClient({ account, transport: http(chain.rpcUrl) });
  const run = async () => {
    for (const address of addresses) {
      // The blacklister is the chains file's operator key, which the simulator sends with too (its checkout mints the
      // customer's smart account's top-up with it): a payment prepared on this chain meanwhile can take the nonce this
      // transaction read, refused at once or, sent at the same instant, replacing it in the pool (then it is never
      // mined). Neither was applied, so it is sent again with the nonce read afresh. The receipt is this transaction's
      // own, read by its hash (viem's waitForTransactionReceipt would answer with the replacing transaction's).
      await retryRefusedNonce(
        async () => {
          const hash = await writeContract(wallet, {
            chain: null,
            type: 'legacy',
            // Legacy pricing at the chain's own gas price: viem's default 1 gwei tip is above the cap of the cheap chains.
            gasPrice: await getGasPrice(publicClient(chain.rpcUrl)),
            address: usdc.address,
            abi: TOKEN_ABI,
            functionName: 'blacklist',
            args: [address],
          });
          return waitForReceipt(receiptReader(chain.chainId, chain.rpcUrl), hash, { timeoutMs: 30_000 });
        },
        { attempts: NONCE_ATTEMPTS },
      );
    }
  };
  const previous = queues.get(chain.rpcUrl) ?? Promise.resolve();
  const next = previous.catch(() => undefined).then(run);
  queues.set(chain.rpcUrl, next);
  await next;
}

/** Whole-token decimal string (as the API reports, 6 decimals) in the token's smallest unit. */
export function toUnits(amount: string, decimals: number): bigint {
  const match = /^(\d+)(?:\.(\d+))?$/.exec(amount);
  if (!match) throw new Error(`not a decimal amount: ${JSON.stringify(amount)}`);
  const fraction = match[2] ?? '';
  if (fraction.length > decimals && /[^0]/.test(fraction.slice(decimals)))
    throw new Error(`${amount} has more decimals than the token's ${decimals}`);
  return BigInt(match[1]!) * 10n ** BigInt(decimals) + BigInt((fraction.slice(0, decimals) || '0').padEnd(decimals, '0'));
}

export interface ExpectedRecipient {
  role: 'merchant' | 'seller' | 'service';
  /** Known to the suite (sellers) or learnt from the ledger; null: found in the receipt by its amount. */
  address: Address | null;
  /** The API's amount for this recipient (whole tokens, decimal string). */
  amountToken: string;
}

export interface SettlementCheck {
  problems: string[];
  /** Recipients with their on-chain delta (smallest units). */
  observed: { role: string; address: Address | null; expected: bigint; delta: bigint | null }[];
  blockNumber: bigint | null;
}

/**
 * Reads the receipt of `txHash` on `chainId` and compares each recipient's balance just before and at that block
 * with the API's amount. A recipient without a known address is identified among the receipt's token transfers
 * from the payer by its exact amount.
 */
export async function verifySettlement(
  chains: ChainsFile,
  input: { chainId: number; token: string; txHash: string; recipients: ExpectedRecipient[] },
): Promise<SettlementCheck> {
  const problems: string[] = [];
  const chain = chainOf(chains, input.chainId);
  const token = chain.tokens[input.token as keyof typeof chain.tokens];
  if (!token) return { problems: [`chain ${input.chainId} has no ${input.token}`], observed: [], blockNumber: null };
  const client = publicClient(chain.rpcUrl);
  if (!/^0x[0-9a-fA-F]{64}$/.test(input.txHash))
    return { problems: [`txHash ${JSON.stringify(input.txHash)} is not a 32-byte transaction hash`], observed: [], blockNumber: null };
  let receipt;
  try {
    receipt = await getTransactionReceipt(client, { hash: input.txHash as Hex });
  } catch {
    return { problems: [`txHash ${input.txHash} is no transaction on chain ${input.chainId}`], observed: [], blockNumber: null };
  }
  if (receipt.status !== 'success') problems.push(`transaction ${input.txHash} did not succeed (status ${receipt.status})`);
  const transfers: { from: Address; to: Address; value: bigint }[] = [];
  for (const log of receipt.logs) {
    if (!isAddressEqual(log.address, token.address)) continue;
    try {
      const decoded = decodeEventLog({ abi: TOKEN_ABI, data: log.data, topics: log.topics as [Hex, ...Hex[]] });
      if (decoded.eventName === 'Transfer') transfers.push(decoded.args as { from: Address; to: Address; value: bigint });
    } catch {
      // another event of the token
    }
  }
  if (transfers.length === 0) problems.push(`transaction ${input.txHash} moved no ${input.token} on chain ${input.chainId}`);
  const observed: SettlementCheck['observed'] = [];
  const used = new Set<number>();
  // The payer is the sender of the transfers to the recipients the suite knows (sellers), else of the largest transfer.
  const known = input.recipients.filter((r) => r.address);
  const payer =
    transfers.find((t) => known.some((r) => isAddressEqual(r.address!, t.to)))?.from ??
    [...transfers].sort((a, b) => (b.value > a.value ? 1 : -1))[0]?.from;
  for (const recipient of input.recipients) {
    const expected = toUnits(recipient.amountToken, token.decimals);
    let address = recipient.address;
    if (!address) {
      const at = transfers.findIndex(
        (t, i) =>
          !used.has(i) &&
          payer !== undefined &&
          isAddressEqual(t.from, payer) &&
          t.value === expected &&
          !known.some((r) => isAddressEqual(r.address!, t.to)),
      );
      if (at >= 0) {
        used.add(at);
        address = transfers[at]!.to;
      }
    }
    if (!address) {
      if (expected > 0n)
        problems.push(
          `no ${input.token} transfer of ${recipient.amountToken} (the ${recipient.role}'s amount, ${expected} units) in transaction ${input.txHash}`,
        );
      observed.push({ role: recipient.role, address: null, expected, delta: null });
      continue;
    }
    const [before, after] = await Promise.all([
      readContract(client, {
        address: token.address,
        abi: TOKEN_ABI,
        functionName: 'balanceOf',
        args: [address],
        blockNumber: receipt.blockNumber - 1n,
      }),
      readContract(client, {
        address: token.address,
        abi: TOKEN_ABI,
        functionName: 'balanceOf',
        args: [address],
        blockNumber: receipt.blockNumber,
      }),
    ]);
    const delta = (after as bigint) - (before as bigint);
    observed.push({ role: recipient.role, address, expected, delta });
    if (delta !== expected)
      problems.push(
        `the ${recipient.role} ${address} received ${delta} ${input.token} units in block ${receipt.blockNumber}, the API reports ${recipient.amountToken} (${expected} units)`,
      );
  }
  return { problems, observed, blockNumber: receipt.blockNumber };
}

/** Each address's token balance change over one block. */
export async function balanceDeltas(
  chains: ChainsFile,
  chainId: number,
  token: string,
  blockNumber: bigint,
  addresses: Address[],
): Promise<bigint[]> {
  const chain = chainOf(chains, chainId);
  const tokenAddress = chain.tokens[token as keyof typeof chain.tokens]!.address;
  const client = publicClient(chain.rpcUrl);
  const read = (address: Address, block: bigint) =>
    readContract(client, {
      address: tokenAddress,
      abi: TOKEN_ABI,
      functionName: 'balanceOf',
      args: [address],
      blockNumber: block,
    }) as Promise<bigint>;
  return Promise.all(addresses.map(async (a) => (await read(a, blockNumber)) - (await read(a, blockNumber - 1n))));
}
