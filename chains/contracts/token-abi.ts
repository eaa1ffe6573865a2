// ABIs of the tokens at their canonical addresses. Reads use the standard ERC-20 ABI; writes use each contract's own
// ABI, because Ethereum USDT's transfer/approve return nothing and a `returns (bool)` ABI would misdescribe them.
import { erc20Abi, type Abi } from 'viem';
import type { TokenContractKind } from './token-variants.ts';
import { loadCircleArtifact, loadOwnArtifact } from './load-artifact.ts';

export { erc20Abi };

export function tokenAbi(kind: TokenContractKind): Abi {
  switch (kind) {
    case 'fiat-token-v2_2':
      return loadCircleArtifact('FiatTokenV2_2').abi;
    case 'tether-token':
      return loadOwnArtifact('TetherToken').abi;
    case 'usdt0':
      return loadOwnArtifact('Usdt0Token').abi;
    case 'bep20-usdt':
      return loadOwnArtifact('BEP20USDT').abi;
  }
}
