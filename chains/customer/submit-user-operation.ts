// Sends a signed user operation through the web3 proxy (eth_sendUserOperation) and, if asked, waits for its
// settlement. Bundler rejections surface as ProxyCallError with the ERC-7769 code.
import type { Hex } from 'viem';
import { formatUserOperationRequest } from 'viem/account-abstraction';
import type { UserOperationV07 } from '../bundler/parse-user-operation.ts';
import type { UserOperationSettlement } from '../bundler/settlement.ts';
import { ENTRY_POINT_ADDRESS } from '../roles.ts';
import { callProxy, type ProxyEndpoint } from './call-proxy.ts';

/** A proxy that can also tell when an operation it accepted has settled (chains/rpc-proxy's proxy can). */
export interface SettlingProxyEndpoint extends ProxyEndpoint {
  waitForSettlement(chainId: number, userOpHash: Hex): Promise<UserOperationSettlement>;
}

export async function submitUserOperation(proxy: ProxyEndpoint, chainId: number, userOperation: UserOperationV07): Promise<Hex> {
  return callProxy<Hex>(proxy, chainId, 'eth_sendUserOperation', [formatUserOperationRequest(userOperation), ENTRY_POINT_ADDRESS]);
}

export interface SubmitAndSettleReturnType {
  userOpHash: Hex;
  settlement: UserOperationSettlement;
}

export async function submitAndSettle(
  proxy: SettlingProxyEndpoint,
  chainId: number,
  userOperation: UserOperationV07,
): Promise<SubmitAndSettleReturnType> {
  const userOpHash = await submitUserOperation(proxy, chainId, userOperation);
  return { userOpHash, settlement: await proxy.waitForSettlement(chainId, userOpHash) };
}
