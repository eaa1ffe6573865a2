import { describe, expect, it } from 'vitest';
import { KeyedLimiter } from './keyed-limiter.ts';

const tick = () => new Promise((resolve) => setImmediate(resolve));

describe('KeyedLimiter', () => {
  it('never runs more than max per key, serves waiters in order, and keys are independent', async () => {
    const limiter = new KeyedLimiter(2);
    const order: number[] = [];
    const releases: Array<() => void> = [];
    for (let i = 0; i < 5; i++) {
      void limiter.acquire('a').then((release) => {
        order.push(i);
        releases.push(release);
      });
    }
    let otherKey = false;
    void limiter.acquire('b').then(() => (otherKey = true));
    await tick();
    expect(order).toEqual([0, 1]);
    expect(otherKey).toBe(true);
    releases[0]!();
    releases[0]!(); // a double release must not free two slots
    await tick();
    expect(order).toEqual([0, 1, 2]);
    expect(limiter.inFlight('a')).toBe(2);
    releases[1]!();
    releases[2]!();
    await tick();
    expect(order).toEqual([0, 1, 2, 3, 4]);
    releases[3]!();
    releases[4]!();
    expect(limiter.inFlight('a')).toBe(0);
  });

  it('wakes every waiter on close', async () => {
    const limiter = new KeyedLimiter(1);
    await limiter.acquire('a');
    const waiting = limiter.acquire('a');
    limiter.close();
    await expect(waiting).resolves.toBeTypeOf('function');
  });

  it('refuses a non-positive concurrency', () => {
    expect(() => new KeyedLimiter(0)).toThrow(RangeError);
  });
});
