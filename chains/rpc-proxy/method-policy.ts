// Which JSON-RPC methods the web3 proxy serves. The checkout needs reads, fee queries and the ERC-4337 methods;
// everything that changes chain state outside a user operation, or controls the node, is refused by name.

export type MethodRoute = 'bundler' | 'fees' | 'pass-through' | 'refused' | 'unknown';

export const BUNDLER_METHODS = new Set([
  'eth_sendUserOperation',
  'eth_estimateUserOperationGas',
  'eth_getUserOperationReceipt',
  'eth_getUserOperationByHash',
  'eth_supportedEntryPoints',
]);

/** Answered from the chain's configured gas price (the simulated chains have a base fee of 0). */
export const FEE_METHODS = new Set(['eth_gasPrice', 'eth_maxPriorityFeePerGas']);

export const PASS_THROUGH_METHODS = new Set([
  'eth_chainId',
  'eth_blockNumber',
  'eth_call',
  'eth_estimateGas',
  'eth_createAccessList',
  'eth_feeHistory',
  'eth_blobBaseFee',
  'eth_getBalance',
  'eth_getCode',
  'eth_getStorageAt',
  'eth_getProof',
  'eth_getTransactionCount',
  'eth_getBlockByNumber',
  'eth_getBlockByHash',
  'eth_getBlockReceipts',
  'eth_getBlockTransactionCountByNumber',
  'eth_getBlockTransactionCountByHash',
  'eth_getTransactionByHash',
  'eth_getTransactionByBlockNumberAndIndex',
  'eth_getTransactionByBlockHashAndIndex',
  'eth_getTransactionReceipt',
  'eth_getUncleCountByBlockNumber',
  'eth_getUncleCountByBlockHash',
  'eth_getLogs',
  'eth_newFilter',
  'eth_newBlockFilter',
  'eth_getFilterChanges',
  'eth_getFilterLogs',
  'eth_uninstallFilter',
  'eth_syncing',
  'eth_accounts',
  'eth_protocolVersion',
  'net_version',
  'net_listening',
  'web3_clientVersion',
  'web3_sha3',
]);

const REFUSED_PREFIXES = ['anvil_', 'evm_', 'hardhat_', 'debug_', 'personal_', 'admin_', 'miner_', 'eth_sign'];
const REFUSED_METHODS = new Set([
  'eth_sendTransaction',
  'eth_sendRawTransaction',
  'eth_sendRawTransactionSync',
  'eth_submitWork',
  'eth_submitHashrate',
]);

export function routeMethod(method: string): MethodRoute {
  if (BUNDLER_METHODS.has(method)) return 'bundler';
  if (FEE_METHODS.has(method)) return 'fees';
  if (PASS_THROUGH_METHODS.has(method)) return 'pass-through';
  if (REFUSED_METHODS.has(method) || REFUSED_PREFIXES.some((p) => method.startsWith(p))) return 'refused';
  return 'unknown';
}
