// USDT at the chain's canonical address: the replica of the variant that chain runs (see token-variants.ts).
import { encodeDeployData, type Address } from 'viem';
import type { TokenVariant } from '../../contracts/token-variants.ts';
import { loadOwnArtifact } from '../../contracts/load-artifact.ts';
import type { BakeContext } from './bake-context.ts';
import { placeContract } from './place-contract.ts';

export async function deployUsdt(ctx: BakeContext, address: Address, variant: TokenVariant): Promise<void> {
  let deployData;
  switch (variant.kind) {
    case 'tether-token': {
      const a = loadOwnArtifact('TetherToken');
      deployData = encodeDeployData({ abi: a.abi, bytecode: a.bytecode, args: [0n, variant.name, variant.symbol, 6n] });
      break;
    }
    case 'usdt0': {
      const a = loadOwnArtifact('Usdt0Token');
      deployData = encodeDeployData({ abi: a.abi, bytecode: a.bytecode, args: [variant.name, variant.symbol] });
      break;
    }
    case 'bep20-usdt': {
      const a = loadOwnArtifact('BEP20USDT');
      deployData = encodeDeployData({ abi: a.abi, bytecode: a.bytecode });
      break;
    }
    default:
      throw new Error(`deployUsdt cannot deploy a ${variant.kind} token`);
  }
  await placeContract(ctx, { at: address, deployData, purpose: `${variant.symbol} (${variant.kind})` });
}
