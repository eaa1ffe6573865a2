// Sending a transaction again when the chain refused its nonce: another sender from the same account took it first (a
// second simulator on the same chains: simulators on one database share the operator and bundler accounts). The
// refused transaction was never applied, so sending it again, with the nonce read afresh, cannot apply it twice.
import { ChainLayerError } from '../errors.ts';

export interface NonceRetryOptions {
  /** Sends in all, the first included. */
  attempts: number;
  /** Whether a failure is the chain refusing the nonce (default: nonceRefused). Anything else is thrown at once. */
  refused?: (error: unknown) => boolean;
  /** Milliseconds to wait before the next send (default: 5 to 50, at random). */
  pauseMs?: () => number;
}

/**
 * A moment of random length before sending again: two senders that collided once would otherwise read the count at
 * the same instant and collide again.
 */
const jitteredPause = (): number => 5 + Math.random() * 45;

/** Runs `send` (which reads the nonce itself) until it succeeds, fails otherwise, or `attempts` sends were refused. */
export async function retryRefusedNonce<T>(send: () => Promise<T>, options: NonceRetryOptions): Promise<T> {
  const refused = options.refused ?? nonceRefused;
  for (let attempt = 1; ; attempt += 1) {
    try {
      return await send();
    } catch (error) {
      if (attempt >= options.attempts || !refused(error)) throw error;
    }
    const pause = (options.pauseMs ?? jitteredPause)();
    if (pause > 0) await new Promise((resolve) => setTimeout(resolve, pause));
  }
}

/**
 * A transaction the chain accepted and then dropped unmined: another transaction of the same account with the same nonce
 * replaced it in the pool (two senders of one key at the same instant). It was never applied: it may be sent again.
 */
export class TransactionDroppedError extends ChainLayerError {
  override name = 'TransactionDroppedError';
  constructor(
    readonly chainId: number,
    readonly hash: string,
  ) {
    super(
      `Transaction ${hash} on chain ${chainId} was dropped unmined: another transaction of the same account took its nonce (replaced it in the pool).`,
    );
  }
}

/**
 * Whether an error (or one of its causes) is the chain refusing a nonce already used (or one still pending), or dropping
 * a transaction whose nonce another one took.
 */
export function nonceRefused(error: unknown): boolean {
  for (let at: unknown = error, depth = 0; at instanceof Error && depth < 8; at = at.cause, depth += 1)
    if (
      at.name === 'NonceTooLowError' ||
      at.name === 'TransactionDroppedError' ||
      /nonce too low|nonce has already been used|replacement transaction underpriced/i.test(at.message)
    )
      return true;
  return false;
}
