// recordFinishedAgain: an outcome the bundler reached that the payment no longer shows (undone before it was committed)
// goes through the hooks again; nothing else does (an operation still pending or bundling, a payment already ended).
import { describe, expect, it, vi } from 'vitest';
import type { StoredUserOperation } from '@stablepay/chains';
import { OperationTracker, recordFinishedAgain, type TrackedOperation } from './chain-outcomes.ts';

const HASH = '0x00000000000000000000000000000000000000000000000000000000000000aa';
const op = { paymentId: 'pay_1', chainId: 8453, userOpHash: HASH } as unknown as TrackedOperation;
const settlement = { chainId: 8453, userOpHash: HASH, success: true, txHash: '0xbeef' };
const failure = { code: 'SIMULATION_FAILED', source: 'bundler' as const, message: 'dropped from the mempool' };

function run(stored: Partial<StoredUserOperation> | undefined, status = 'PROCESSING', tracked = true) {
  const tracker = new OperationTracker();
  if (tracked) tracker.track(op);
  const hooks = { onUserOperationSettled: vi.fn(), onUserOperationRejected: vi.fn() };
  const bundler = {
    getUserOperation: () =>
      stored && ({ chainId: 8453, userOpHash: HASH, userOperation: { sender: '0x01' }, hold: false, ...stored } as StoredUserOperation),
  };
  const payments = { find: () => ({ status }) as never };
  return { hooks, recorded: recordFinishedAgain({ tracker, bundler, hooks, payments }, new Set(['pay_1'])) };
}

describe('recordFinishedAgain', () => {
  it('a settled operation whose payment is still PROCESSING: its settlement is reported again', async () => {
    const { hooks, recorded } = run({ status: 'settled', settlement: settlement as never });
    expect(await recorded).toBe(1);
    expect(hooks.onUserOperationSettled).toHaveBeenCalledWith(settlement);
    expect(hooks.onUserOperationRejected).not.toHaveBeenCalled();
  });

  it('a dropped one: its failure is reported again as a mempool drop', async () => {
    const { hooks, recorded } = run({ status: 'dropped', failure });
    expect(await recorded).toBe(1);
    expect(hooks.onUserOperationRejected).toHaveBeenCalledWith(
      expect.objectContaining({ chainId: 8453, userOpHash: HASH, stage: 'mempool', failure, message: failure.message }),
    );
  });

  it('nothing while the operation is pending or bundling, once the payment ended, or for an operation not tracked here', async () => {
    for (const { stored, status, tracked } of [
      { stored: { status: 'pending' as const }, status: 'PROCESSING', tracked: true },
      { stored: { status: 'bundling' as const }, status: 'PROCESSING', tracked: true },
      { stored: { status: 'settled' as const, settlement: settlement as never }, status: 'SUCCESSFUL', tracked: true },
      { stored: { status: 'settled' as const, settlement: settlement as never }, status: 'PROCESSING', tracked: false },
      { stored: undefined, status: 'PROCESSING', tracked: true },
    ]) {
      const { hooks, recorded } = run(stored, status, tracked);
      expect(await recorded).toBe(0);
      expect(hooks.onUserOperationSettled).not.toHaveBeenCalled();
      expect(hooks.onUserOperationRejected).not.toHaveBeenCalled();
    }
  });
});
