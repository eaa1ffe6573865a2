// eth_sendTransaction answered as MetaMask answers it: the fee fields the page gives are honoured, the missing ones are
// filled from the chain (EIP-1559 when the latest block has a base fee, legacy gasPrice when the page asks for it or
// the chain has none), the gas limit is the page's or an estimate with MetaMask's buffer, and the nonce is the
// account's own (MetaMask ignores a nonce the page passes). The transaction is signed here and sent raw to the
// suite's own chain; the summary says which value came from where, for the wallet log.
import { createClient, http, type AccessList, type Address, type Hex } from 'viem';
import type { PrivateKeyAccount } from 'viem/accounts';
import { estimateGas, estimateMaxPriorityFeePerGas, getBlock, getGasPrice, getTransactionCount, sendRawTransaction } from 'viem/actions';

/** The transaction object of eth_sendTransaction as pages send it (quantities as hex strings). */
export interface PageTransaction {
  from?: string;
  to?: Hex | null;
  data?: Hex;
  /** Some libraries send `input` instead of `data`. */
  input?: Hex;
  value?: string;
  gas?: string;
  /** Some libraries send `gasLimit` instead of `gas`. */
  gasLimit?: string;
  gasPrice?: string;
  maxFeePerGas?: string;
  maxPriorityFeePerGas?: string;
  type?: string;
  chainId?: string | number;
  nonce?: string;
  accessList?: AccessList;
}

/** A request the wallet refuses, with the EIP-1193 / JSON-RPC error code a page sees. */
export class WalletRpcError extends Error {
  constructor(
    message: string,
    readonly code: number,
  ) {
    super(message);
  }
}

export interface SentTransaction {
  hash: Hex;
  /** Type, fees and gas with where each came from (page, chain, estimate). */
  summary: string;
}

/** MetaMask pads a contract call's gas estimate by half, within 90 % of the block's gas limit. */
const GAS_BUFFER_NUMERATOR = 3n;
const GAS_BUFFER_DENOMINATOR = 2n;

function quantity(value: unknown, field: string): bigint | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value === 'number' && Number.isSafeInteger(value) && value >= 0) return BigInt(value);
  if (typeof value === 'string' && /^(0x[0-9a-fA-F]+|[0-9]+)$/.test(value)) return BigInt(value);
  throw new WalletRpcError(`Invalid transaction: ${field} ${JSON.stringify(value)} is not a quantity`, -32602);
}

const gwei = (wei: bigint): string => {
  const whole = wei / 1_000_000_000n;
  const fraction = (wei % 1_000_000_000n).toString().padStart(9, '0').replace(/0+$/, '');
  return `${whole}${fraction ? `.${fraction}` : ''} gwei`;
};

export async function sendPageTransaction(input: {
  account: PrivateKeyAccount;
  rpcUrl: string;
  chainId: number;
  tx: PageTransaction;
}): Promise<SentTransaction> {
  const { account, chainId, tx } = input;
  const requestedChain = quantity(tx.chainId, 'chainId');
  if (requestedChain !== undefined && requestedChain !== BigInt(chainId)) {
    throw new WalletRpcError(`Invalid chainId ${String(tx.chainId)}: the wallet is on chain ${chainId}`, -32602);
  }
  const client = createClient({ transport: http(input.rpcUrl) });
  const to = (tx.to ?? null) as Address | null;
  const data = tx.data ?? tx.input;
  const value = quantity(tx.value, 'value') ?? 0n;
  const requestedType = tx.type === undefined ? undefined : Number(quantity(tx.type, 'type'));
  const pageGasPrice = quantity(tx.gasPrice, 'gasPrice');
  const pageMaxFee = quantity(tx.maxFeePerGas, 'maxFeePerGas');
  const pagePriority = quantity(tx.maxPriorityFeePerGas, 'maxPriorityFeePerGas');

  const [nonce, block] = await Promise.all([
    getTransactionCount(client, { address: account.address, blockTag: 'pending' }),
    getBlock(client, { blockTag: 'latest' }),
  ]);
  const notes: string[] = [];

  let gas = quantity(tx.gas, 'gas') ?? quantity(tx.gasLimit, 'gasLimit');
  if (gas !== undefined) notes.push(`gas ${gas} (page)`);
  else {
    const estimate = await estimateGas(client, { account: account.address, ...(to ? { to } : {}), ...(data ? { data } : {}), value });
    const isSimpleSend = !data || data === '0x';
    const ceiling = (block.gasLimit * 9n) / 10n;
    const padded = (estimate * GAS_BUFFER_NUMERATOR) / GAS_BUFFER_DENOMINATOR;
    gas = isSimpleSend ? estimate : padded < ceiling ? padded : estimate > ceiling ? estimate : ceiling;
    notes.push(`gas ${gas} (estimate ${estimate})`);
  }

  const legacy =
    pageGasPrice !== undefined ||
    requestedType === 0 ||
    requestedType === 1 ||
    (pageMaxFee === undefined && pagePriority === undefined && block.baseFeePerGas === null);
  let serializedTransaction: Hex;
  if (legacy) {
    const gasPrice = pageGasPrice ?? pageMaxFee ?? (await getGasPrice(client));
    notes.unshift(
      `legacy, gasPrice ${gwei(gasPrice)} (${pageGasPrice !== undefined ? 'page' : pageMaxFee !== undefined ? 'page maxFeePerGas' : 'chain'})`,
    );
    serializedTransaction = await account.signTransaction({
      type: 'legacy',
      chainId,
      nonce,
      gas,
      gasPrice,
      to,
      value,
      ...(data ? { data } : {}),
    });
  } else {
    const baseFee = block.baseFeePerGas ?? 0n;
    const suggested = pagePriority === undefined ? await suggestedPriorityFee(client) : 0n;
    const priority = pagePriority ?? (pageMaxFee !== undefined && pageMaxFee < suggested ? pageMaxFee : suggested);
    const maxFee = pageMaxFee ?? 2n * baseFee + priority;
    if (priority > maxFee)
      throw new WalletRpcError(
        `Invalid transaction: maxPriorityFeePerGas (${gwei(priority)}) is higher than maxFeePerGas (${gwei(maxFee)})`,
        -32602,
      );
    notes.unshift(
      `eip1559, maxFeePerGas ${gwei(maxFee)} (${pageMaxFee !== undefined ? 'page' : `chain: 2 x base fee ${gwei(baseFee)} + tip`}), maxPriorityFeePerGas ${gwei(priority)} (${pagePriority !== undefined ? 'page' : 'chain'})`,
    );
    serializedTransaction = await account.signTransaction({
      type: 'eip1559',
      chainId,
      nonce,
      gas,
      maxFeePerGas: maxFee,
      maxPriorityFeePerGas: priority,
      to,
      value,
      ...(data ? { data } : {}),
      ...(tx.accessList ? { accessList: tx.accessList } : {}),
    });
  }
  if (tx.nonce !== undefined) notes.push(`nonce ${nonce} (the page's ${tx.nonce} ignored, as MetaMask does)`);
  let hash: Hex;
  try {
    hash = await sendRawTransaction(client, { serializedTransaction });
  } catch (error) {
    const detail = (error as { details?: string }).details ?? (error as Error).message.split('\n')[0] ?? 'error';
    throw new WalletRpcError(`The chain refused the transaction: ${detail}`, -32000);
  }
  return { hash, summary: `${hash} ${notes.join(', ')}` };
}

/** The tip MetaMask would suggest without its gas API: the node's eth_maxPriorityFeePerGas, else 0. */
async function suggestedPriorityFee(client: ReturnType<typeof createClient>): Promise<bigint> {
  try {
    return await estimateMaxPriorityFeePerGas(client, { chain: null } as never);
  } catch {
    return 0n;
  }
}
