// How each issuer mints to an address, as the calls its operator sends: USDC's minter and USDT0 mint to it; Ethereum
// USDT (issue) and BSC USDT (mint) mint to the owner, who then transfers. Real Transfer events, real totalSupply.
// One rule for funding at run time (network/fund-account.ts) and for the test accounts baked into every chain's state
// (baked/deploy/fund-test-accounts.ts).
import { encodeFunctionData, type Address, type Hex } from 'viem';
import { tokenAbi } from './token-abi.ts';
import type { TokenContractKind } from './token-variants.ts';

export interface MintCall {
  functionName: string;
  data: Hex;
}

export function mintCalls(kind: TokenContractKind, address: Address, amountUnits: bigint): MintCall[] {
  const abi = tokenAbi(kind);
  const calls: { functionName: string; args: unknown[] }[] =
    kind === 'fiat-token-v2_2' || kind === 'usdt0'
      ? [{ functionName: 'mint', args: [address, amountUnits] }]
      : [
          { functionName: kind === 'tether-token' ? 'issue' : 'mint', args: [amountUnits] },
          { functionName: 'transfer', args: [address, amountUnits] },
        ];
  return calls.map((call) => ({
    functionName: call.functionName,
    data: encodeFunctionData({ abi, functionName: call.functionName, args: call.args }),
  }));
}
