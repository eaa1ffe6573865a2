// eth_estimateUserOperationGas for EntryPoint v0.7 on our chains:
//   - validation: EntryPointSimulations.simulateValidation through eth_call with the EntryPoint's code overridden
//     (the method reference bundlers use); preOpGas - preVerificationGas is the validation gas actually used;
//   - execution: eth_estimateGas of the account's callData sent by the EntryPoint; an account not deployed yet is
//     stood in for by the SimpleAccount implementation's code at its address (only the EntryPoint check matters);
//   - paymaster limits: fixed, measured for StablecoinGasPaymaster with margin.
import { decodeFunctionResult, encodeFunctionData, type Hex } from 'viem';
import { toPackedUserOperation } from 'viem/account-abstraction';
import type { ChainHandle } from '../network/chain-handle.ts';
import { loadAccountAbstractionArtifact } from '../contracts/load-artifact.ts';
import { ENTRY_POINT_ADDRESS, SIMPLE_ACCOUNT_FACTORY_ADDRESS } from '../roles.ts';
import { computePreVerificationGas } from './compute-pre-verification-gas.ts';
import { decodeEntryPointError, describeRevertData, revertDataOf } from './decode-entry-point-error.ts';
import type { UserOperationV07 } from './parse-user-operation.ts';
import { RPC, RpcError } from './rpc-error.ts';

export const PAYMASTER_VERIFICATION_GAS = 60_000n;
export const PAYMASTER_POST_OP_GAS = 75_000n;
const SIMULATION_VERIFICATION_GAS = 3_000_000n;

export interface EstimateUserOperationGasReturnType {
  preVerificationGas: bigint;
  verificationGasLimit: bigint;
  callGasLimit: bigint;
  paymasterVerificationGasLimit?: bigint;
  paymasterPostOpGasLimit?: bigint;
}

const implementationCode = new WeakMap<ChainHandle, Hex>();

async function accountStandInCode(handle: ChainHandle): Promise<Hex> {
  const cached = implementationCode.get(handle);
  if (cached) return cached;
  const factory = loadAccountAbstractionArtifact('SimpleAccountFactory');
  const implementation = (await handle.publicClient.readContract({
    address: SIMPLE_ACCOUNT_FACTORY_ADDRESS,
    abi: factory.abi,
    functionName: 'accountImplementation',
  })) as Hex;
  const code = await handle.publicClient.getCode({ address: implementation });
  implementationCode.set(handle, code ?? '0x');
  return code ?? '0x';
}

/** Gas used by validation (account + paymaster), as simulateValidation measures it. */
export async function simulateValidation(
  handle: ChainHandle,
  userOperation: UserOperationV07,
): Promise<{ preOpGas: bigint; signatureFailed: boolean }> {
  const simulations = loadAccountAbstractionArtifact('EntryPointSimulations');
  const data = encodeFunctionData({
    abi: simulations.abi,
    functionName: 'simulateValidation',
    args: [toPackedUserOperation(userOperation)],
  });
  const res = await handle.rawRequest('eth_call', [
    { to: ENTRY_POINT_ADDRESS, data, gas: '0x1c9c380' },
    'latest',
    { [ENTRY_POINT_ADDRESS]: { code: simulations.deployedBytecode } },
  ]);
  if (res.error) throw decodeEntryPointError(revertDataOf(res.error), res.error.message);
  const result = decodeFunctionResult({ abi: simulations.abi, functionName: 'simulateValidation', data: res.result as Hex }) as {
    returnInfo: { preOpGas: bigint; accountValidationData: bigint };
  };
  return { preOpGas: result.returnInfo.preOpGas, signatureFailed: (result.returnInfo.accountValidationData & ((1n << 160n) - 1n)) === 1n };
}

export async function estimateUserOperationGas(
  handle: ChainHandle,
  userOperation: UserOperationV07,
): Promise<EstimateUserOperationGasReturnType> {
  const preVerificationGas = computePreVerificationGas(userOperation);
  const hasPaymaster = userOperation.paymaster !== undefined;
  const probe: UserOperationV07 = {
    ...userOperation,
    preVerificationGas,
    verificationGasLimit: SIMULATION_VERIFICATION_GAS,
    callGasLimit: 0n,
    maxFeePerGas: 0n,
    maxPriorityFeePerGas: 0n,
    ...(hasPaymaster
      ? { paymasterVerificationGasLimit: PAYMASTER_VERIFICATION_GAS * 5n, paymasterPostOpGasLimit: PAYMASTER_POST_OP_GAS }
      : {}),
  };
  const { preOpGas } = await simulateValidation(handle, probe);
  const validationGas = preOpGas - preVerificationGas;
  const verificationGasLimit = (validationGas * 12n) / 10n + 10_000n;

  const deployed = await handle.publicClient.getCode({ address: userOperation.sender });
  const overrides = deployed && deployed !== '0x' ? {} : { [userOperation.sender]: { code: await accountStandInCode(handle) } };
  const execution = await handle.rawRequest('eth_estimateGas', [
    { from: ENTRY_POINT_ADDRESS, to: userOperation.sender, data: userOperation.callData },
    'latest',
    overrides,
  ]);
  if (execution.error) {
    const reason = describeRevertData(revertDataOf(execution.error));
    throw new RpcError(RPC.EXECUTION_REVERTED, `execution reverted: ${revertDataOf(execution.error) ? reason : execution.error.message}`, {
      reason,
    });
  }
  // eth_estimateGas includes the 21000 intrinsic gas and the calldata cost the inner call does not pay: a margin.
  const callGasLimit = BigInt(execution.result as string);
  return {
    preVerificationGas,
    verificationGasLimit,
    callGasLimit,
    ...(hasPaymaster ? { paymasterVerificationGasLimit: PAYMASTER_VERIFICATION_GAS, paymasterPostOpGasLimit: PAYMASTER_POST_OP_GAS } : {}),
  };
}
