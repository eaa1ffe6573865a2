export { web3Routes, type Web3Caller, type Web3Handler } from './routes.ts';
export { detachedChainResponse } from './detached-chain-response.ts';
export { createWeb3Proxy, type Web3Proxy, type Web3ProxyHooks, type Web3ProxyResponse } from '../../chains/rpc-proxy/create-web3-proxy.ts';
