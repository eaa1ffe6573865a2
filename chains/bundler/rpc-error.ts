// JSON-RPC errors raised by the bundler and the proxy. Codes follow JSON-RPC 2.0 and ERC-7769 (bundler RPC).
export const RPC = {
  PARSE_ERROR: -32700,
  INVALID_REQUEST: -32600,
  METHOD_NOT_FOUND: -32601,
  INVALID_PARAMS: -32602,
  INTERNAL_ERROR: -32603,
  METHOD_NOT_ALLOWED: -32000,
  /** ERC-7769: rejected by the EntryPoint's simulateValidation (account or factory). */
  REJECTED_BY_ENTRY_POINT: -32500,
  /** ERC-7769: rejected by the paymaster's validatePaymasterUserOp. */
  REJECTED_BY_PAYMASTER: -32501,
  /** ERC-7769: the user operation's time range has passed or is not yet valid. */
  OUT_OF_TIME_RANGE: -32503,
  /** ERC-7769: invalid signature. */
  INVALID_SIGNATURE: -32507,
  /** ERC-7769: the call of the user operation reverted during gas estimation. */
  EXECUTION_REVERTED: -32521,
} as const;

export class RpcError extends Error {
  override name = 'RpcError';
  constructor(
    readonly code: number,
    message: string,
    readonly data?: unknown,
  ) {
    super(message);
  }

  toJSON(): { code: number; message: string; data?: unknown } {
    return this.data === undefined
      ? { code: this.code, message: this.message }
      : { code: this.code, message: this.message, data: this.data };
  }
}

export const invalidParams = (message: string): RpcError => new RpcError(RPC.INVALID_PARAMS, message);
