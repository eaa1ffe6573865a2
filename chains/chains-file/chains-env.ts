// The environment variables that tell a black-box target where its chains are (read at every start, so this module
// imports nothing).
export const CHAINS_FILE_ENV = 'STABLEPAY_CHAINS_FILE';
export const rpcUrlEnv = (chainId: number): string => `STABLEPAY_RPC_URL_${chainId}`;
