// Circle's USDC: FiatTokenV2_2 (SignatureChecker linked) behind FiatTokenProxy at the chain's canonical address,
// initialised through the proxy the way Circle does (V1 -> V2 -> V2_1 -> V2_2), with the operator as owner,
// master minter and an unlimited minter so the simulator can mint.
import { encodeDeployData, encodeFunctionData, maxUint256, type Address } from 'viem';
import { loadCircleArtifact, linkBytecode } from '../../contracts/load-artifact.ts';
import { operatorAccount, usdcProxyAdmin } from '../../roles.ts';
import { sendTransaction } from '../../clients/send-transaction.ts';
import type { BakeContext } from './bake-context.ts';
import { placeContract } from './place-contract.ts';

export interface DeployUsdcParameters {
  address: Address;
  decimals: number;
  name: string;
  symbol: string;
}

export async function deployUsdc(ctx: BakeContext, params: DeployUsdcParameters): Promise<void> {
  const signatureChecker = loadCircleArtifact('SignatureChecker');
  const library = await sendTransaction(ctx.publicClient, ctx.operator, {
    data: signatureChecker.bytecode,
    purpose: 'deploy SignatureChecker',
  });
  const token = loadCircleArtifact('FiatTokenV2_2');
  const implementation = await sendTransaction(ctx.publicClient, ctx.operator, {
    data: linkBytecode(token, { SignatureChecker: library.contractAddress! }),
    purpose: 'deploy FiatTokenV2_2',
  });
  const proxy = loadCircleArtifact('FiatTokenProxy');
  await ctx.testClient.impersonateAccount({ address: usdcProxyAdmin });
  await ctx.testClient.setBalance({ address: usdcProxyAdmin, value: 10n ** 21n });
  await placeContract(ctx, {
    at: params.address,
    deployData: encodeDeployData({ abi: proxy.abi, bytecode: proxy.bytecode, args: [implementation.contractAddress!] }),
    from: ctx.proxyAdmin,
    purpose: 'FiatTokenProxy',
  });
  await ctx.testClient.stopImpersonatingAccount({ address: usdcProxyAdmin });

  const operator = operatorAccount.address;
  const calls = [
    { functionName: 'initialize', args: [params.name, params.symbol, 'USD', params.decimals, operator, operator, operator, operator] },
    { functionName: 'initializeV2', args: [params.name] },
    { functionName: 'initializeV2_1', args: [operator] },
    { functionName: 'initializeV2_2', args: [[], params.symbol] },
    { functionName: 'configureMinter', args: [operator, maxUint256] },
  ] as const;
  for (const call of calls) {
    await sendTransaction(ctx.publicClient, ctx.operator, {
      to: params.address,
      data: encodeFunctionData({ abi: token.abi, functionName: call.functionName, args: call.args as readonly unknown[] }),
      purpose: `USDC ${call.functionName}`,
    });
  }
}
