// The transfers a settlement transaction really made, read from its token Transfer logs (from the customer's smart
// account; the paymaster's gas charge to the gas treasury is left out) and matched, in batch order, against the
// quote: matched logs keep the quote's role and address spelling; anything else is reported as unexpected.
import { decodeEventLog, getAddress, isAddressEqual, parseAbi, type Address, type Hex, type Log } from 'viem';
import type { PaymentQuote, QuotedTransfer } from '../checkout/index.ts';
import { formatTokenUnits } from '../checkout/index.ts';
import type { ChainNetwork } from '@stablepay/chains';
import type { SettlementTransfer } from '../payments/types.ts';

const TRANSFER_ABI = parseAbi(['event Transfer(address indexed from, address indexed to, uint256 value)']);

export interface SettlementTransfers {
  /** What the ledger records: the payment transfers of the transaction, in log order. */
  recorded: SettlementTransfer[];
  /** Transfers from the customer the quote did not ask for (never expected). */
  unexpected: { to: Address; units: string }[];
  /** Quoted transfers the transaction did not make (never expected on a successful receipt). */
  missing: QuotedTransfer[];
}

export function transfersFromLogs(network: ChainNetwork, quote: PaymentQuote, sender: Address, logs: readonly Log[]): SettlementTransfers {
  const tokenAddress = network.tokenAddress(quote.chainId, quote.token);
  const expected = [...quote.transfers];
  const recorded: SettlementTransfer[] = [];
  const unexpected: SettlementTransfers['unexpected'] = [];
  for (const log of logs) {
    if (!isAddressEqual(log.address, tokenAddress)) continue;
    let args: { from: Address; to: Address; value: bigint };
    try {
      const decoded = decodeEventLog({ abi: TRANSFER_ABI, data: log.data, topics: log.topics as [Hex, ...Hex[]] });
      args = decoded.args;
    } catch {
      continue; // Approval and other token events
    }
    if (!isAddressEqual(args.from, sender) || isAddressEqual(args.to, network.gasTreasury)) continue;
    const at = expected.findIndex((t) => isAddressEqual(t.to, args.to) && t.amountUnits === args.value);
    const match = at >= 0 ? expected.splice(at, 1)[0] : undefined;
    if (!match) {
      unexpected.push({ to: getAddress(args.to), units: args.value.toString() });
      continue;
    }
    recorded.push({ role: match.role, address: match.address, amountToken: formatTokenUnits(args.value, quote.decimals) });
  }
  return { recorded, unexpected, missing: expected };
}
