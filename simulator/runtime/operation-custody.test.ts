// The custody's decision on a held operation is the database's: when the database cannot answer mid-request, the
// confirm or fail is answered 503 with Retry-After (nothing taken), never a 500.
import { expect, it } from 'vitest';
import { ApiError } from '../edge/http/errors.ts';
import type { TrackedOperation } from '../core/customer/index.ts';
import { operationCustody } from './operation-custody.ts';
import type { DurableState } from './persistence/durable-state.ts';

const op = { paymentId: 'pay_1', chainId: 8453, userOpHash: '0xabc', hold: true } as unknown as TrackedOperation;

function custodyWith(takeHeld: () => Promise<boolean>) {
  const durable = { operationLeases: { takeHeld } } as unknown as DurableState;
  const custody = operationCustody(durable);
  if (!custody) throw new Error('a durable state with operation leases has a custody');
  return custody;
}

it('takes a held operation as the database decides', async () => {
  expect(await custodyWith(async () => true).takeHeld(op)).toBe(true);
  expect(await custodyWith(async () => false).takeHeld(op)).toBe(false);
});

it('the database away: 503 with Retry-After, not a 500', async () => {
  const refused = await custodyWith(() => Promise.reject(new Error('connect ECONNREFUSED 127.0.0.1:5432')))
    .takeHeld(op)
    .catch((error: unknown) => error);
  expect(refused).toBeInstanceOf(ApiError);
  const response = (refused as ApiError).getResponse();
  expect(response.status).toBe(503);
  expect(response.headers.get('retry-after')).toMatch(/^\d+$/);
});
