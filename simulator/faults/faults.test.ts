import { describe, expect, it } from 'vitest';
import { createSimulator } from '../app.ts';
import { FAULT_DEFINITIONS, FAULT_NAMES, NO_FAULTS, parseFaultList, resolveFaults, UnknownFaultError } from './index.ts';

const quiet = { info: () => {}, error: () => {} };

describe('fault registry', () => {
  it('names are unique kebab-case and every fault cites requirements', () => {
    expect(new Set(FAULT_NAMES).size).toBe(FAULT_NAMES.length);
    for (const f of FAULT_DEFINITIONS) {
      expect(f.name).toMatch(/^[a-z0-9]+(-[a-z0-9]+)*$/);
      expect(f.breaks.length).toBeGreaterThan(0);
    }
  });

  it('is off by default', () => {
    expect(Object.values(NO_FAULTS).every((on) => on === false)).toBe(true);
    expect(resolveFaults()).toBe(NO_FAULTS);
    expect(createSimulator({ logger: quiet }).faults).toEqual([]);
  });

  it('refuses unknown names at startup', () => {
    expect(() => resolveFaults(['updated-at-missing', 'no-such-fault'])).toThrow(UnknownFaultError);
    expect(() => createSimulator({ faults: ['no-such-fault'], logger: quiet })).toThrow(/unknown fault "no-such-fault"/);
  });

  it('parses STABLEPAY_INJECT_FAULTS lists', () => {
    expect(parseFaultList(' a, b ,,c ')).toEqual(['a', 'b', 'c']);
    expect(parseFaultList(undefined)).toEqual([]);
  });

  it('announces itself: banner at startup and faults in the control health', async () => {
    const lines: string[] = [];
    const sim = createSimulator({ faults: ['updated-at-missing', 'timestamp-in-ms'], logger: { info: (m) => lines.push(m), error: () => {} } });
    expect(lines.join('\n')).toContain('FAULTS INJECTED — this simulator is deliberately broken: updated-at-missing, timestamp-in-ms');
    const health = (await (await sim.app.request('/control/v1/health')).json()) as { faults?: string[] };
    expect(health.faults).toEqual(['updated-at-missing', 'timestamp-in-ms']);
    expect(sim.webhooks.faults.timestampInMs).toBe(true);
    await sim.close();
    const clean = createSimulator({ logger: quiet });
    expect(((await (await clean.app.request('/control/v1/health')).json()) as { faults?: string[] }).faults).toBeUndefined();
    await clean.close();
  });
});
