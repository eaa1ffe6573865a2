// The suite's generators must only produce requests the contract allows; otherwise a correct
// implementation would be failed for refusing them.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { materialize, validCreateCase } from '@stablepay/conformance/generators/create-body';
import { deriveCreateRules } from '@stablepay/conformance/generators/create-rules';
import type { ContractFacade } from '@stablepay/conformance/contract-facade';
import { loadContractFacade } from '@stablepay/conformance/contract-adapter';
import { toUnits } from '@stablepay/conformance/facts/decimal';
import { allowedPairs, currency } from '@stablepay/conformance/facts/fixtures';

const GRAMMAR = /^(0|[1-9][0-9]*)(\.[0-9]{1,2})?$/;

describe('valid create generator', async () => {
  const contract: ContractFacade = await loadContractFacade();
  const rules = deriveCreateRules(contract);

  it('reads its limits from the contract', () => {
    expect(rules.sources).toMatchObject({
      titleMaxLength: 'contract',
      externalIdMaxLength: 'contract',
      sellersMax: 'contract',
      currencies: 'contract',
    });
    expect(rules.currencies).toHaveLength(14);
    expect(rules.sellersMax).toBe(5);
  });

  it('produces bodies within every create rule', () => {
    fc.assert(
      fc.property(
        validCreateCase(rules, { optionalFields: true }),
        fc.date({ min: new Date('2025-01-01'), max: new Date('2030-01-01'), noInvalidDate: true }),
        (createCase, now) => {
          const body = materialize(createCase, now.getTime());
          const { minorUnits, minimum } = currency(body.currency);
          for (const value of [body.amount, body.merchantAmount, ...(body.sellers ?? []).map((s) => s.amount)]) {
            if (value === undefined) continue;
            expect(value).toMatch(GRAMMAR);
            if (minorUnits === 0) expect(value).not.toContain('.');
          }
          const amount = toUnits(body.amount, minorUnits);
          expect(amount >= toUnits(minimum, minorUnits) && amount <= toUnits(rules.amountMaximum, minorUnits)).toBe(true);
          if (body.sellers) {
            expect(body.sellers.length).toBeGreaterThanOrEqual(1);
            expect(body.sellers.length).toBeLessThanOrEqual(rules.sellersMax);
            expect(new Set(body.sellers.map((s) => s.address)).size).toBe(body.sellers.length);
            const sum = body.sellers.reduce((a, s) => a + toUnits(s.amount, minorUnits), 0n);
            expect(sum <= amount).toBe(true);
            if (body.merchantAmount !== undefined) expect(toUnits(body.merchantAmount, minorUnits) + sum).toBe(amount);
          }
          if (body.title !== undefined) expect(body.title.length).toBeLessThanOrEqual(rules.titleMaxLength);
          if (body.externalId !== undefined) expect(body.externalId).toMatch(rules.externalIdPattern);
          if (body.acceptedChains) expect(allowedPairs(body.acceptedChains, body.acceptedTokens ?? rules.tokens).length).toBeGreaterThan(0);
          if (body.expiresAt) {
            const offset = Date.parse(body.expiresAt) - now.getTime();
            expect(offset).toBeGreaterThanOrEqual(15 * 60_000);
            expect(offset).toBeLessThanOrEqual(30 * 86_400_000);
          }
        },
      ),
      { numRuns: 500 },
    );
  });
});
