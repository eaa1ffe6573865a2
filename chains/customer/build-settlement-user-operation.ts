// The customer's one signature: a user operation whose executeBatch approves the gas paymaster and pays every
// recipient (merchant, each seller, the fee collector) in the chosen token — one operation, one transaction.
// Gas limits come from the proxy's eth_estimateUserOperationGas, as a wallet would get them.
import { encodeFunctionData, formatUnits, isAddress, maxUint256, type Address, type Hex } from 'viem';
import {
  formatUserOperationRequest,
  getUserOperationHash,
  toPackedUserOperation,
  type PackedUserOperation,
} from 'viem/account-abstraction';
import { POST_OP_OVERHEAD_GAS } from '../baked/deploy/deploy-paymaster.ts';
import { computePreVerificationGas } from '../bundler/compute-pre-verification-gas.ts';
import { STUB_SIGNATURE, type UserOperationV07 } from '../bundler/parse-user-operation.ts';
import type { TokenSymbol } from '@stablepay/contract/chain-table';
import { tokenPerNative } from '../clients/gas-price.ts';
import { tokenVariant } from '../contracts/token-variants.ts';
import { SettlementBuildError, UnsupportedTokenError } from '../errors.ts';
import { loadAccountAbstractionArtifact } from '../contracts/load-artifact.ts';
import { ENTRY_POINT_ADDRESS } from '../roles.ts';
import type { ChainNetwork } from '../network/start-chain-network.ts';
import { erc20Abi, tokenAbi } from '../contracts/token-abi.ts';
import { ProxyCallError, callProxy, type ProxyEndpoint } from './call-proxy.ts';
import type { CustomerAccount, SmartAccountReference } from './create-customer-account.ts';

export interface SettlementTransfer {
  to: Address;
  /** Smallest token unit (6 decimals, or 18 for BSC USDT). */
  amountUnits: bigint;
}

export interface BuildSettlementUserOperationParameters {
  network: ChainNetwork;
  proxy: ProxyEndpoint;
  /** An account with its owner key is signed for; a bare reference gets signature "0x" (its owner signs userOpHash). */
  account: CustomerAccount | SmartAccountReference;
  token: TokenSymbol;
  transfers: readonly SettlementTransfer[];
  /** Append a call that always reverts, so the operation lands on chain and fails (tests FAILED). */
  forceRevert?: boolean;
  /** Build and sign even when estimation shows the payment would revert (e.g. insufficient balance). */
  allowRevert?: boolean;
  /** Price per gas; default: the proxy's eth_maxPriorityFeePerGas. */
  gasPriceWei?: bigint;
}

export interface BuildSettlementUserOperationReturnType {
  userOperation: UserOperationV07;
  packed: PackedUserOperation;
  userOpHash: Hex;
  /** Most the paymaster may charge for gas, in token units (what the batch approves). */
  maxGasTokenUnits: bigint;
}

const GAS_KEYS = [
  'preVerificationGas',
  'verificationGasLimit',
  'callGasLimit',
  'paymasterVerificationGasLimit',
  'paymasterPostOpGasLimit',
] as const;
const REVERT_CALL_GAS = 60_000n;
const BURN_ADDRESS: Address = '0x000000000000000000000000000000000000dEaD';

export async function buildSettlementUserOperation(
  params: BuildSettlementUserOperationParameters,
): Promise<BuildSettlementUserOperationReturnType> {
  const { network, proxy, account, token } = params;
  const chainId = account.chainId;
  const handle = network.chain(chainId);
  const variant = tokenVariant(chainId, token);
  if (!variant) throw new UnsupportedTokenError(chainId, token);
  if (params.transfers.length === 0) throw new SettlementBuildError('A settlement needs at least one transfer.');
  for (const t of params.transfers) {
    if (!isAddress(t.to))
      throw new SettlementBuildError(`Transfer recipient ${t.to} is not an address (mixed case must be a valid EIP-55 checksum).`);
    if (t.amountUnits <= 0n) throw new SettlementBuildError(`Transfer to ${t.to} must be positive (got ${t.amountUnits}).`);
  }
  const tokenAddress = network.tokenAddress(chainId, token);
  const decimals = network.tokenDecimals(chainId, token);
  const abi = tokenAbi(variant.kind);
  const paymaster = network.paymaster;

  const [deployed, nonce, allowance, gasPriceHex] = await Promise.all([
    account.isDeployed(),
    account.getNonce(),
    handle.publicClient.readContract({
      address: tokenAddress,
      abi: erc20Abi,
      functionName: 'allowance',
      args: [account.address, paymaster],
    }),
    params.gasPriceWei === undefined ? callProxy<Hex>(proxy, chainId, 'eth_maxPriorityFeePerGas', []) : Promise.resolve(undefined),
  ]);
  const gasPrice = params.gasPriceWei ?? BigInt(gasPriceHex!);

  const callData = (approveAmount: bigint, withRevert: boolean, withTransfers = true): Hex => {
    const calls: Hex[] = [];
    // Ethereum USDT refuses to change a non-zero allowance to another non-zero value: reset it first.
    if (allowance > 0n && variant.kind === 'tether-token')
      calls.push(encodeFunctionData({ abi, functionName: 'approve', args: [paymaster, 0n] }));
    calls.push(encodeFunctionData({ abi, functionName: 'approve', args: [paymaster, approveAmount] }));
    if (withTransfers)
      for (const t of params.transfers) calls.push(encodeFunctionData({ abi, functionName: 'transfer', args: [t.to, t.amountUnits] }));
    if (withRevert) calls.push(encodeFunctionData({ abi, functionName: 'transferFrom', args: [BURN_ADDRESS, account.address, 1n] }));
    return encodeFunctionData({
      abi: loadAccountAbstractionArtifact('SimpleAccount').abi,
      functionName: 'executeBatch',
      args: [calls.map(() => tokenAddress), [], calls],
    });
  };

  const draft: UserOperationV07 = {
    sender: account.address,
    nonce,
    ...(deployed ? {} : { factory: account.factory, factoryData: account.factoryData }),
    callData: callData(maxUint256 >> 8n, false),
    callGasLimit: 0n,
    verificationGasLimit: 0n,
    preVerificationGas: 0n,
    maxFeePerGas: gasPrice,
    maxPriorityFeePerGas: gasPrice,
    paymaster,
    paymasterData: tokenAddress,
    paymasterVerificationGasLimit: 0n,
    paymasterPostOpGasLimit: 0n,
    signature: STUB_SIGNATURE,
  };

  let estimate: Record<(typeof GAS_KEYS)[number], Hex>;
  let extraCallGas = params.forceRevert ? REVERT_CALL_GAS : 0n;
  try {
    estimate = await callProxy(proxy, chainId, 'eth_estimateUserOperationGas', [formatUserOperationRequest(draft), ENTRY_POINT_ADDRESS]);
  } catch (error) {
    if (!(error instanceof ProxyCallError && error.rpcCode === -32521 && params.allowRevert)) {
      throw new SettlementBuildError(`Could not estimate the settlement on chain ${chainId}.`, { cause: error });
    }
    // The payment will revert; estimate the validation part alone (no transfers) and give the call fixed gas.
    const probe = { ...draft, callData: callData(1n, false, false) };
    estimate = await callProxy(proxy, chainId, 'eth_estimateUserOperationGas', [formatUserOperationRequest(probe), ENTRY_POINT_ADDRESS]);
    extraCallGas += REVERT_CALL_GAS * BigInt(params.transfers.length);
  }

  const op: UserOperationV07 = { ...draft };
  for (const key of GAS_KEYS) op[key] = BigInt(estimate[key]);
  op.callGasLimit += extraCallGas;
  const maxCost =
    (op.preVerificationGas +
      op.verificationGasLimit +
      op.callGasLimit +
      op.paymasterVerificationGasLimit! +
      op.paymasterPostOpGasLimit! +
      POST_OP_OVERHEAD_GAS) *
    gasPrice;
  const price = tokenPerNative(handle.entry.nativeUsdPrice, decimals);
  const maxGasTokenUnits = (maxCost * price + 10n ** 18n - 1n) / 10n ** 18n;
  op.callData = callData(maxGasTokenUnits, params.forceRevert === true);
  const pvg = computePreVerificationGas(op);
  if (pvg > op.preVerificationGas) op.preVerificationGas = pvg;

  const userOpHash = getUserOperationHash({ chainId, entryPointAddress: ENTRY_POINT_ADDRESS, entryPointVersion: '0.7', userOperation: op });
  op.signature = 'owner' in account ? await account.owner.signMessage({ message: { raw: userOpHash } }) : '0x';
  if (maxGasTokenUnits === 0n && gasPrice > 0n) {
    throw new SettlementBuildError(`Gas of ${formatUnits(maxCost, 18)} native tokens rounds to 0 ${token} units; check nativeUsdPrice.`);
  }
  return { userOperation: op, packed: toPackedUserOperation(op), userOpHash, maxGasTokenUnits };
}
