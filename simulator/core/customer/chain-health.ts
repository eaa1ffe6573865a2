// How each settlement chain is doing, as GET /control/v1/health reports it. Settlement produces it (attach-chains.ts,
// or the instant fallback in app.ts); the control API only shows it, so the type lives here, below control/.
export interface ChainHealth {
  chainId: number;
  name: string;
  /** Latest block; 0 when no node is attached (instant settlement). */
  blockNumber: number;
  status: string;
  /** Where the chain's node answers JSON-RPC (chain-backed runs only). */
  rpcUrl?: string;
}
