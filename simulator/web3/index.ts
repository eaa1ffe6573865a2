export { web3Routes, detachedChainResponse } from './routes.ts';
export type { Web3Caller, Web3Handler, Web3Response } from './routes.ts';
