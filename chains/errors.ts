// Errors of the chain layer, shaped like viem's BaseError: a short message, optional meta lines a person can act on,
// and the cause. `message` joins them, so a log line alone says what happened and what to do.

export interface ChainErrorOptions {
  cause?: unknown;
  details?: string;
  metaMessages?: string[];
}

export class ChainLayerError extends Error {
  override name = 'ChainLayerError';
  readonly shortMessage: string;
  readonly details: string | undefined;
  readonly metaMessages: string[];

  constructor(shortMessage: string, options: ChainErrorOptions = {}) {
    const causeText =
      options.cause instanceof Error ? options.cause.message : options.cause === undefined ? undefined : String(options.cause);
    const details = options.details ?? causeText;
    const lines = [
      shortMessage,
      ...(options.metaMessages?.length ? ['', ...options.metaMessages] : []),
      ...(details ? ['', `Details: ${details}`] : []),
    ];
    super(lines.join('\n'), options.cause === undefined ? undefined : { cause: options.cause });
    this.shortMessage = shortMessage;
    this.details = details;
    this.metaMessages = options.metaMessages ?? [];
  }
}

export class AnvilBinaryNotFoundError extends ChainLayerError {
  override name = 'AnvilBinaryNotFoundError';
  constructor(platformPackage: string, cause?: unknown) {
    super(`No Anvil binary for this platform (${process.platform}-${process.arch}).`, {
      cause,
      metaMessages: [
        `Expected package: ${platformPackage}`,
        'Run `npm install` on Linux x64 (the package is an optional dependency; on other platforms add @foundry-rs/anvil-<platform>-<arch> where the registry has it), or set STABLEPAY_ANVIL_BINARY to an anvil executable.',
      ],
    });
  }
}

export class AnvilStartError extends ChainLayerError {
  override name = 'AnvilStartError';
  constructor(chainId: number, reason: string, output: string) {
    super(`Anvil for chain ${chainId} did not start: ${reason}.`, {
      metaMessages: [
        'Last output of anvil:',
        output.trim() || '(none)',
        'Check that loopback networking works and the state file is readable.',
      ],
    });
  }
}

export class UnknownChainError extends ChainLayerError {
  override name = 'UnknownChainError';
  constructor(chainId: number, known: readonly number[]) {
    super(`Unknown chainId ${chainId}.`, { metaMessages: [`Running chains: ${known.join(', ') || '(none)'}`] });
  }
}

export class UnsupportedTokenError extends ChainLayerError {
  override name = 'UnsupportedTokenError';
  constructor(chainId: number, token: string) {
    super(`Token ${token} does not exist on chain ${chainId}.`, {
      metaMessages: ['Supported pairs are listed in fixtures/chains.json (e.g. Base has only USDC, BNB Smart Chain only USDT).'],
    });
  }
}

export class ChainUnavailableError extends ChainLayerError {
  override name = 'ChainUnavailableError';
  constructor(chainId: number, reason: string) {
    super(`Chain ${chainId} is unavailable: ${reason}.`, {
      metaMessages: [
        'Its Anvil process exited and could not be restarted. Restart the simulator (or call network.stop() and start a new network).',
      ],
    });
  }
}

export class StaleChainStateError extends ChainLayerError {
  override name = 'StaleChainStateError';
  constructor(chainId: number, why: string) {
    super(`The baked state of chain ${chainId} is out of date: ${why}.`, {
      metaMessages: ['Regenerate it: npx tsx chains/baked/bake-state.ts'],
    });
  }
}

export class SettlementBuildError extends ChainLayerError {
  override name = 'SettlementBuildError';
}
