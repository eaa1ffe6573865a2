// The crash runs' judge of an event answered 2xx more than once (crash-run.ts): at-least-once after a kill is
// excused, a duplicate is not. The case that failed the replicas crash test in CI: a kill took the sender of a
// successful attempt before it recorded it, the lease's taker sent the attempt again into a receiver outage, and the
// retry schedule delivered it once more, 9,360 virtual seconds later.
import { describe, expect, it } from 'vitest';
import { judgeRepeatedEvent } from './crash-run.ts';

const kill = { sentAt: 14_792, exitedAt: 14_869 };
const copy = (deliveryId: string, instant: string, arrivedAt: number) => ({ deliveryId, instant, arrivedAt });

describe('judgeRepeatedEvent', () => {
  it('one attempt sent again (same instant): resent', () => {
    expect(judgeRepeatedEvent([copy('d1', '100', 1_000), copy('d1', '100', 20_000)], [])).toBe('resent');
  });
  it('one delivery, later attempt after a kill that took the sender of the first success: resent', () => {
    expect(judgeRepeatedEvent([copy('d1', '1795819738', 14_791), copy('d1', '1795829098', 28_428)], [kill])).toBe('resent');
  });
  it('one delivery, two successes with no kill between: duplicated', () => {
    expect(judgeRepeatedEvent([copy('d1', '100', 1_000), copy('d1', '160', 2_000)], [kill])).toBe('duplicated');
  });
  it('one delivery, the first success long before the kill (its sender had time to record it): duplicated', () => {
    expect(judgeRepeatedEvent([copy('d1', '100', 5_000), copy('d1', '160', 28_000)], [kill])).toBe('duplicated');
  });
  it('two deliveries of one event: duplicated, kill or not', () => {
    expect(judgeRepeatedEvent([copy('d1', '100', 14_791), copy('d2', '160', 28_428)], [kill])).toBe('duplicated');
  });
});
