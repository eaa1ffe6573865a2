// One rule for sending again after a refused nonce, used by the operator's funding and the bundler.
import { describe, expect, it } from 'vitest';
import { retryRefusedNonce } from './nonce-retry.ts';

const refusal = () => new Error('Could not send the transaction', { cause: new Error('nonce too low') });

/** A send that fails with `failure()` the first `failing` times (every time when omitted), then answers 'sent'. */
function sender(failure: () => Error, failing = Number.POSITIVE_INFINITY) {
  const calls = { count: 0 };
  const send = async () => {
    calls.count += 1;
    if (calls.count <= failing) throw failure();
    return 'sent';
  };
  return { send, calls };
}

describe('retryRefusedNonce', () => {
  it('sends again while the nonce is refused, and returns the first success', async () => {
    const { send, calls } = sender(refusal, 2);
    expect(await retryRefusedNonce(send, { attempts: 8 })).toBe('sent');
    expect(calls.count).toBe(3);
  });

  it('gives up after the attempts, with the last refusal', async () => {
    const { send, calls } = sender(refusal);
    await expect(retryRefusedNonce(send, { attempts: 3, pauseMs: () => 1 })).rejects.toThrow('Could not send the transaction');
    expect(calls.count).toBe(3);
  });

  it("throws any other failure at once, and takes the caller's own test of a refusal", async () => {
    const reverted = sender(() => new Error('execution reverted'));
    await expect(retryRefusedNonce(reverted.send, { attempts: 8 })).rejects.toThrow('execution reverted');
    expect(reverted.calls.count).toBe(1);
    const tooHigh = sender(() => new Error('nonce too high'));
    const refused = (error: unknown) => /nonce/i.test((error as Error).message);
    await expect(retryRefusedNonce(tooHigh.send, { attempts: 2, refused })).rejects.toThrow('nonce too high');
    expect(tooHigh.calls.count).toBe(2);
  });
});
