// Regression tests for what an implementation written from the spec alone met (issue 23, "Why"): every failure came
// from the suite's own choices. Each runs the fixture service of the suite's own with that legal choice.
import { describe, expect, it } from 'vitest';
import { documentedFailures, runAgainstFixture } from '../test-support/fixture-service/run-variant.ts';
import type { RunResult } from '../types.ts';

const premise = (result: RunResult, id: string) => result.premises.find((p) => p.id === id);

describe('issue 23 findings', () => {
  it('a key body of {name, expiresAt} without a profile: the premise is refuted, named, and nothing documented fails', async () => {
    const result = await runAgainstFixture({
      choices: { keyExpiryField: 'expiresAt' },
      control: true,
      checks: ['api-keys.management', 'auth.revoked-key'],
    });
    expect(documentedFailures(result)).toEqual([]);
    expect(premise(result, 'api-keys.expiring-body')).toMatchObject({ status: 'refuted' });
    const management = result.checks.find((c) => c.id === 'api-keys.management')!;
    // The first request of the check no longer stops it with a documented KEY-CREATE-ENDPOINT failure.
    const capped = management.failures.filter((f) => f.unconfirmedPremises?.some((p) => p.id === 'api-keys.expiring-body'));
    expect(capped.length).toBeGreaterThan(0);
    expect(capped.every((f) => f.severity === 'warn' && /sent POST \/v1\/auth\/api-keys/.test(f.message))).toBe(true);
  }, 120_000);

  it('a lenient key body that ignores expiresInDays (expiry read back null): the 30-day key is not judged as a security failure', async () => {
    const result = await runAgainstFixture({
      choices: { keyExpiryField: 'expiresAt', keyBodyLenient: true },
      control: true,
      checks: ['api-keys.management'],
    });
    expect(documentedFailures(result)).toEqual([]);
    expect(premise(result, 'api-keys.expiring-body')?.status).toBe('refuted');
    expect(premise(result, 'api-keys.expiring-body')?.evidence.at(-1)?.seen).toMatch(/expiresAt null/);
  }, 120_000);

  it('a CSV export with another RFC 4180 header: the 30-day window is judged by the payments it names', async () => {
    const result = await runAgainstFixture({ choices: { csvHeader: 'snake-case' }, control: true, checks: ['analytics.export-csv'] });
    expect(documentedFailures(result)).toEqual([]);
    const exportCheck = result.checks.find((c) => c.id === 'analytics.export-csv')!;
    expect(exportCheck.judged).toContain('ANL-EXPORT-CSV-30D');
    expect(exportCheck.failures.every((f) => f.requirement !== 'ANL-EXPORT-CSV-30D')).toBe(true);
  }, 120_000);

  it('list items under another key: discovered, and none of the list checks fails', async () => {
    const result = await runAgainstFixture({
      choices: { listItemKey: 'records' },
      control: false,
      checks: ['pagination.page-size', 'pagination.cursor-walk', 'versioning.path-prefix-v1', 'auth.merchant-isolation'],
    });
    expect(documentedFailures(result)).toEqual([]);
    expect(premise(result, 'list.item-key')).toMatchObject({ status: 'discovered', value: 'records' });
  }, 120_000);

  it('a per-currency minimum of 10.00: found at the boundary; neither PAY-CREATE-RESPONSE-201 nor PAY-FEE-SUM-IDENTITY fails', async () => {
    const minimums = Object.fromEntries(['AED', 'BRL', 'EUR', 'GBP', 'ILS', 'MXN', 'PHP', 'THB', 'USD'].map((code) => [code, '10.00']));
    const result = await runAgainstFixture({
      choices: { minimums },
      control: false,
      checks: ['create.valid-requests', 'fees.split-properties'],
    });
    expect(documentedFailures(result)).toEqual([]);
    const found = premise(result, 'payments.minimum-amounts');
    expect(found?.status).toBe('discovered');
    expect((found?.value as Record<string, string> | undefined)?.USD).toBe('10.00');
  }, 120_000);

  it('a webhook secret without the whsec_ prefix: WH-SECRET-ROTATE holds', async () => {
    const result = await runAgainstFixture({
      choices: { webhookSecretPrefix: false },
      control: false,
      checks: ['webhook-config.rotate-and-deliveries', 'webhooks.signature'],
    });
    expect(documentedFailures(result)).toEqual([]);
    expect(result.failures.filter((f) => f.requirement === 'WH-SECRET-ROTATE')).toEqual([]);
    expect(premise(result, 'webhooks.secret-field')?.status).toBe('discovered');
  }, 120_000);

  it('401/404/429 bodies of another shape warn under their own assumed requirement, never ERR-BODY-SHAPE', async () => {
    const result = await runAgainstFixture({
      choices: { otherErrorBody: 'problem-json' },
      control: true,
      checks: ['auth.missing-credentials', 'lifecycle.cancel', 'rate-limit.limit-exceeded', 'response.conformance'],
    });
    expect(documentedFailures(result)).toEqual([]);
    const bodyFindings = result.failures.filter((f) => /→ (401|404|429)/.test(f.message) || f.checkId === 'rate-limit.limit-exceeded');
    expect(bodyFindings.some((f) => f.requirement === 'ERR-BODY-SHAPE-OTHER-STATUSES')).toBe(true);
    expect(bodyFindings.filter((f) => f.requirement === 'ERR-BODY-SHAPE')).toEqual([]);
  }, 120_000);

  it('fees.split-properties stopped at its first counterexample: the rules it never reached are not-exercised, not pass', async () => {
    const result = await runAgainstFixture({ faults: ['fee-off-when-exact'], control: false, checks: ['fees.split-properties'] });
    expect(result.checks.find((c) => c.id === 'fees.split-properties')?.result).toBe('fail');
    const row = (id: string) => result.traceability.find((r) => r.requirement.id === id)!;
    expect(row('PAY-FEE-SERVICE-RATE').result).toBe('fail');
    for (const id of ['PAY-FEE-ROUND-HALF-UP', 'PAY-FEE-SELLERS-PROPORTIONAL', 'PAY-FEE-MINOR-UNIT-FORMAT'])
      expect(row(id).result, id).toBe('not-exercised');
  }, 120_000);
});
