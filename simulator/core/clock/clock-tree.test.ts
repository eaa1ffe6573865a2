import { describe, expect, it } from 'vitest';
import { TEST_CLOCK_PATTERN, VirtualClock } from './virtual-clock.ts';

const START = 1_000_000;
const frozen = () => new VirtualClock({ wallNow: () => 0, offsetMs: START });

describe('clocks of merchants and test clocks', () => {
  it("moving one merchant's clock moves neither the sandbox clock nor another merchant's", async () => {
    const sandbox = frozen();
    const a = sandbox.for('merchant-a');
    const b = sandbox.for('merchant-b');
    const fired: string[] = [];
    a.schedule(START + 100, () => void fired.push(`a@${a.now()}`));
    b.schedule(START + 100, () => void fired.push(`b@${b.now()}`));
    sandbox.schedule(START + 100, () => void fired.push(`sandbox@${sandbox.now()}`));
    expect(await a.advance(500)).toEqual({ now: START + 500, firedTimers: 1 });
    expect(fired).toEqual([`a@${START + 100}`]);
    expect([sandbox.now(), b.now(), a.now()]).toEqual([START, START, START + 500]);
    expect(a.offsetMs).toBe(START + 500);
    expect(sandbox.for('merchant-a')).toBe(a);
    sandbox.dispose();
  });

  it('a clock at wall time shows offset 0 even when the wall clock ticks while it is read', () => {
    let wall = 5_000;
    // Every reading of the wall clock is a millisecond later than the one before.
    const sandbox = new VirtualClock({ wallNow: () => wall++ });
    const test = sandbox.for('clk_0123456789abcdef01234567');
    for (let i = 0; i < 5; i++) expect([sandbox.offsetMs, test.offsetMs]).toEqual([0, 0]);
    sandbox.dispose();
  });

  it('moving the sandbox clock moves every clock under it and fires their timers in one order, each at its due time', async () => {
    const sandbox = frozen();
    const a = sandbox.for('merchant-a');
    await a.advance(1000); // a is 1000 ms ahead
    const b = sandbox.for('merchant-b');
    const fired: string[] = [];
    b.schedule(START + 300, () => void fired.push(`b@${b.now()}`));
    a.schedule(START + 1200, () => void fired.push(`a@${a.now()}`)); // sandbox time START + 200
    sandbox.schedule(START + 250, () => void fired.push(`sandbox@${sandbox.now()}`));
    const result = await sandbox.advance(400);
    expect(result.firedTimers).toBe(3);
    expect(fired).toEqual([`a@${START + 1200}`, `sandbox@${START + 250}`, `b@${START + 300}`]);
    expect([sandbox.now(), a.now(), b.now()]).toEqual([START + 400, START + 1400, START + 400]);
    sandbox.dispose();
  });

  it('merchants attached to a test clock share it; the listeners hear the furthest clock', async () => {
    const sandbox = frozen();
    const heard: number[] = [];
    sandbox.onAdvance((now) => void heard.push(now));
    const { id, clock } = sandbox.createTestClock();
    expect(id).toMatch(TEST_CLOCK_PATTERN);
    sandbox.attach('m1', id);
    sandbox.attach('m2', id);
    expect(sandbox.for('m1')).toBe(clock);
    expect(sandbox.for('m2')).toBe(clock);
    expect(sandbox.testClockOf('m1')).toBe(id);
    expect(sandbox.hasTestClock(id)).toBe(true);
    expect(sandbox.hasTestClock('clk_000000000000000000000000')).toBe(false);
    await sandbox.for('m1').advance(60_000);
    expect(sandbox.for('m2').now()).toBe(START + 60_000);
    expect(sandbox.for('m3').now()).toBe(START);
    expect(heard.at(-1)).toBe(START + 60_000);
    expect(sandbox.furthestNow()).toBe(START + 60_000);
    sandbox.dispose();
  });

  it('restart drops a clock’s timers and puts it back at the sandbox time; offsets survive a restart of the process', async () => {
    const sandbox = frozen();
    const a = sandbox.for('merchant-a');
    const fired: number[] = [];
    a.schedule(START + 10_000, () => void fired.push(1));
    await a.advance(5000);
    const { id } = sandbox.createTestClock();
    sandbox.attach('merchant-b', id);
    await sandbox.for(id).advance(7000);
    await sandbox.advance(3);
    const saved = sandbox.offsets();
    expect(saved).toEqual({ sandboxMs: START + 3, clocks: { 'merchant-a': 5000, [id]: 7000 } });
    const again = new VirtualClock({ wallNow: () => 0 });
    again.restoreOffsets(saved);
    again.attach('merchant-b', id);
    expect([again.now(), again.for('merchant-a').now(), again.for('merchant-b').now()]).toEqual([START + 3, START + 5003, START + 7003]);
    await a.restart();
    expect(a.now()).toBe(START + 3);
    await sandbox.advance(20_000);
    expect(fired).toEqual([]);
    expect(sandbox.pendingTimers()).toBe(0);
    sandbox.dispose();
    again.dispose();
  });

  it('refuses to restart the sandbox clock', () => {
    const sandbox = frozen();
    expect(() => sandbox.restart()).toThrow(RangeError);
  });
});
