// webhooks.retry-schedule times attempts by their arrival on the clock the suite moves, so a target that sends only
// the documented headers is judged like the simulator, and a header that claims the documented time does not hide a
// late retry (the suite's own fixture service, in-process, through its control API).
import { describe, expect, it } from 'vitest';
import { runAgainstFixture } from '../../test-support/fixture-service/run-variant.ts';

const CHECK = 'webhooks.retry-schedule';

async function retryRun(faults: Parameters<typeof runAgainstFixture>[0]['faults'], attemptTimeHeader: boolean) {
  const result = await runAgainstFixture({ control: true, attemptTimeHeader, faults, checks: [CHECK] });
  return result.checks.find((c) => c.id === CHECK)!;
}

describe('webhooks.retry-schedule, timed by arrival', () => {
  it('passes a target that sends only the documented headers', async () => {
    const check = await retryRun([], false);
    expect(check.failures).toEqual([]);
    expect(check.result).toBe('pass');
  }, 60_000);

  it('catches a schedule shifted by 30 s without the attempt-time header', async () => {
    const check = await retryRun(['retry-schedule-shifted'], false);
    expect(check.result).toBe('fail');
    expect(check.failures.map((f) => f.requirement)).toContain('WH-RETRY-ATTEMPT-2');
  }, 60_000);

  it('catches retries a minute late whose attempt-time header claims the documented instant', async () => {
    const check = await retryRun(['retry-late-header-on-time'], true);
    expect(check.result).toBe('fail');
    expect(check.failures.map((f) => f.requirement)).toContain('WH-RETRY-ATTEMPT-2');
  }, 60_000);
});
