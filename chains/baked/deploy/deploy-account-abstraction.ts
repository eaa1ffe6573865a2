// EntryPoint v0.7 and SimpleAccountFactory, deployed exactly as on mainnet: through the deterministic CREATE2
// deployer with the published salts, so they land on their canonical addresses with their real constructors
// (the EntryPoint's SenderCreator included).
import { concat, encodeAbiParameters, type Address, type Hex } from 'viem';
import { ChainLayerError } from '../../errors.ts';
import { loadAccountAbstractionArtifact } from '../../contracts/load-artifact.ts';
import { CREATE2_DEPLOYER, ENTRY_POINT_ADDRESS, ENTRY_POINT_SALT, SIMPLE_ACCOUNT_FACTORY_ADDRESS } from '../../roles.ts';
import { sendTransaction } from '../../clients/send-transaction.ts';
import type { BakeContext } from './bake-context.ts';

const ZERO_SALT: Hex = `0x${'0'.repeat(64)}`;

export async function deployWithCreate2(ctx: BakeContext, salt: Hex, initCode: Hex, expected: Address, purpose: string): Promise<void> {
  await sendTransaction(ctx.publicClient, ctx.operator, {
    to: CREATE2_DEPLOYER,
    data: concat([salt, initCode]),
    purpose: `deploy ${purpose}`,
  });
  const code = await ctx.publicClient.getCode({ address: expected });
  if (!code || code === '0x') {
    throw new ChainLayerError(`${purpose} did not land on ${expected}.`, {
      metaMessages: ['The artifact in node_modules no longer matches the canonical deployment; check the installed package version.'],
    });
  }
}

export async function deployAccountAbstraction(ctx: BakeContext): Promise<void> {
  await deployWithCreate2(
    ctx,
    ENTRY_POINT_SALT,
    loadAccountAbstractionArtifact('EntryPoint').bytecode,
    ENTRY_POINT_ADDRESS,
    'EntryPoint v0.7',
  );
  const factoryInit = concat([
    loadAccountAbstractionArtifact('SimpleAccountFactory').bytecode,
    encodeAbiParameters([{ type: 'address' }], [ENTRY_POINT_ADDRESS]),
  ]);
  await deployWithCreate2(ctx, ZERO_SALT, factoryInit, SIMPLE_ACCOUNT_FACTORY_ADDRESS, 'SimpleAccountFactory v0.7');
}
