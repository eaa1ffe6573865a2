import { describe, expect, it } from 'vitest';
import { createSimulator } from '../runtime/app.ts';
import { capturingFetch } from '../test-support/webhooks.ts';
import { FAULT_DEFINITIONS, FAULT_NAMES, FAULT_WRAPPERS, parseFaultList, resolveFaults, UnknownFaultError } from './index.ts';

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
    expect(resolveFaults()).toEqual([]);
    expect(resolveFaults([' ', ''])).toEqual([]);
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

  it('wraps at least one seam per fault', () => {
    for (const name of FAULT_NAMES) expect(Object.keys(FAULT_WRAPPERS[name]()).length).toBeGreaterThan(0);
  });

  it('announces itself: banner at startup and faults in the control health', async () => {
    const lines: string[] = [];
    const { fetch, calls } = capturingFetch();
    const sim = createSimulator({
      faults: ['updated-at-missing', 'timestamp-in-ms'],
      webhookOptions: { fetch },
      logger: { info: (m) => lines.push(m), error: () => {} },
    });
    expect(lines.join('\n')).toContain('FAULTS INJECTED — this simulator is deliberately broken: updated-at-missing, timestamp-in-ms');
    const health = (await (await sim.app.request('/control/v1/health')).json()) as { faults?: string[] };
    expect(health.faults).toEqual(['updated-at-missing', 'timestamp-in-ms']);
    // The webhook fault is in place: deliveries are stamped in milliseconds.
    const auth = { authorization: `Bearer ${sim.defaultApiKey}`, 'content-type': 'application/json' };
    expect(
      (await sim.app.request('/v1/webhooks', { method: 'POST', headers: auth, body: JSON.stringify({ url: 'http://hook.example/' }) }))
        .status,
    ).toBe(201);
    sim.webhooks.emit(sim.defaultMerchant.id, {
      type: 'payment.failed',
      paymentId: '3f0c1a2e-5b7d-4c11-9e2f-0a1b2c3d4e5f',
      externalId: null,
    });
    await sim.webhooks.idle();
    expect(calls[0]?.headers['X-Service-Timestamp']).toMatch(/^\d{13}$/); // seconds would be 10 digits
    await sim.close();
    const clean = createSimulator({ logger: quiet });
    expect(((await (await clean.app.request('/control/v1/health')).json()) as { faults?: string[] }).faults).toBeUndefined();
    await clean.close();
  });
});
