// Gives an address tokens the way each issuer mints (contracts/mint-calls.ts): real Transfer events, real totalSupply.
import type { Address, Hex } from 'viem';
import type { TokenSymbol } from '@stablepay/contract/chain-table';
import { tokenVariant } from '../contracts/token-variants.ts';
import { UnsupportedTokenError } from '../errors.ts';
import { retryRefusedNonce } from '../clients/nonce-retry.ts';
import { sendTransaction } from '../clients/send-transaction.ts';
import type { ChainNetwork } from './start-chain-network.ts';
import { mintCalls } from '../contracts/mint-calls.ts';

export interface FundAccountReturnType {
  txHashes: Hex[];
}

export async function fundAccount(
  network: ChainNetwork,
  chainId: number,
  token: TokenSymbol,
  address: Address,
  amountUnits: bigint,
): Promise<FundAccountReturnType> {
  if (amountUnits <= 0n) throw new RangeError(`fundAccount needs a positive amount in the token's smallest unit, got ${amountUnits}`);
  const handle = network.chain(chainId);
  const variant = tokenVariant(chainId, token);
  if (!variant) throw new UnsupportedTokenError(chainId, token);
  await handle.ready();
  const to = network.tokenAddress(chainId, token);
  const txHashes: Hex[] = [];
  for (const call of mintCalls(variant.kind, address, amountUnits)) {
    const receipt = await retryRefusedNonce(
      () =>
        sendTransaction(handle.publicClient, handle.operator, {
          to,
          data: call.data,
          purpose: `fund ${address} with ${amountUnits} ${token} units (${call.functionName})`,
        }),
      { attempts: NONCE_RETRIES },
    );
    txHashes.push(receipt.transactionHash);
  }
  handle.noteWrite();
  return { txHashes };
}

/** Sends of one funding transaction in all while the chain refuses its nonce (another sender took it). */
const NONCE_RETRIES = 8;

/** Token balance in the smallest unit. */
export async function getTokenBalance(network: ChainNetwork, chainId: number, token: TokenSymbol, address: Address): Promise<bigint> {
  const handle = network.chain(chainId);
  return handle.publicClient.readContract({
    address: network.tokenAddress(chainId, token),
    abi: [
      {
        type: 'function',
        name: 'balanceOf',
        stateMutability: 'view',
        inputs: [{ name: 'a', type: 'address' }],
        outputs: [{ type: 'uint256' }],
      },
    ],
    functionName: 'balanceOf',
    args: [address],
  });
}
