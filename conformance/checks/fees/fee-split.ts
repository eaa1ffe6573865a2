// Fee properties over random valid payments in every currency, with and without sellers, in exact
// decimal arithmetic: merchantFee + Σ seller.amount + serviceFee = amount; serviceFee the floor or
// ceiling of the exact 0.5 % (only the exact value when it is representable); the fee deducted proportionally from each
// recipient (exactly where every part is exact; floor or ceiling of its part otherwise, assumed); zero-decimal
// currencies written without decimals; half-up (assumed).
import type { CheckContext } from '../../context.ts';
import { deriveCreateRules } from '../../generators/create-rules.ts';
import { materialize, validCreateCase } from '../../generators/create-body.ts';
import { RequirementError } from '../../errors.ts';
import { defineCheck } from '../../registry.ts';
import { ASSUMED_FEE_PROPERTIES, checkFees, FEE_REQUIREMENT, type FeeProperty } from '../../support/fee-oracle.ts';
import { currency } from '../../facts/fixtures.ts';
import { formatUnits, toUnits } from '../../facts/decimal.ts';
import { createPayment, type CreateBody } from '../../support/payments.ts';

const REQUIREMENT = FEE_REQUIREMENT;
/** A seller address for the fixed cases (any address is a valid recipient). */
const FIXED_SELLER = '0x00000000000000000000000000000000000000a1';

export const feeSplit = defineCheck({
  id: 'fees.split-properties',
  title: 'Fees add up exactly, serviceFee is the floor or ceiling of 0.5 % (the exact value when representable), deducted proportionally',
  // Also: every one of the 14 currencies is accepted (CUR-SUPPORTED-14); with sellers and no
  // merchantAmount the oracle takes the merchant's gross as amount − Σ sellers and checks merchantFee
  // against it (PAY-CREATE-MERCHANT-AMOUNT-REMAINDER); each returned seller amount must be its gross
  // less its proportional fee share (PAY-FEE-SELLER-AMOUNT-AFTER-FEE).
  requirements: [
    ...Object.values(REQUIREMENT),
    'CUR-SUPPORTED-14',
    'PAY-CREATE-MERCHANT-AMOUNT-REMAINDER',
    'PAY-FEE-SELLER-AMOUNT-AFTER-FEE',
    'PAY-CREATE-RESPONSE-201',
  ],
  level: 'documented',
  needs: [],
  tags: ['property', 'fees'],
  premises: ['payments.minimum-amounts'],
  async run(ctx: CheckContext) {
    const rules = deriveCreateRules(ctx.contract);
    // The minimums are not shown: amounts start at the smallest one the implementation accepts (found at its boundary).
    const minimums = await ctx.premise('payments.minimum-amounts');
    // Where 0.5 % is exact in minor units only that fee passes: one such amount per currency, so the
    // exact oracle is exercised whatever the random amounts below turn out to be. And the same with one seller whose
    // gross amount and the merchant's are both exact in 0.5 %: then each recipient bears exactly its 0.5 %, whatever
    // rounding the implementation chose (moving one minor unit between two recipients is caught).
    for (const code of rules.currencies) {
      const { minorUnits, minimum } = currency(code);
      ctx.addCases();
      const smallest = minimums[code] === undefined ? minimum : minimums[code];
      if (smallest === null) {
        ctx.fail(
          'CUR-SUPPORTED-14',
          `No ${code} payment is accepted`,
          `no amount of ${code} from the simulator's minimum up to the maximum 1000000000000 was accepted (premise payments.minimum-amounts)`,
        );
        continue;
      }
      const units = ((toUnits(smallest, minorUnits) + 199n) / 200n + 7n) * 200n;
      const amount = formatUnits(units, minorUnits);
      const seller = formatUnits((units / 400n) * 200n, minorUnits);
      const bodies: CreateBody[] = [
        { amount, currency: code },
        { amount, currency: code, sellers: [{ address: FIXED_SELLER, amount: seller }] },
      ];
      for (const body of bodies) {
        const created = await createPayment(ctx.api, body);
        if (
          !ctx.expect(
            created.status === 201,
            'CUR-SUPPORTED-14',
            `Valid ${code} payment refused`,
            () => `expected 201, got ${created.status}: ${JSON.stringify(body)}: ${created.text.slice(0, 300)}`,
            created.exchange,
          )
        )
          break;
        const exactOnes: FeeProperty[] = ['service-fee', 'identity', 'proportional', 'zero-decimal'];
        const violation = checkFees(body, created.payment, minorUnits).find((v) => exactOnes.includes(v.property));
        if (violation)
          ctx.fail(REQUIREMENT[violation.property], `Fee property broken: ${violation.property}`, violation.message, created.exchange);
        else
          ctx.judged(
            'PAY-FEE-SERVICE-RATE',
            'PAY-FEE-SUM-IDENTITY',
            ...(body.sellers ? ['PAY-FEE-SELLERS-PROPORTIONAL'] : []),
            ...(minorUnits === 0 ? ['FMT-ZERO-DECIMAL-AMOUNTS'] : []),
          );
      }
    }
    // A rule is judged only by the runs that reach it: a finding here stops the properties below, whose rules
    // (half-up rounding, proportional shares, ...) then stay unexercised rather than passed.
    if (ctx.findings.length > 0) return;
    // Every currency, both modes: each pair is its own property so a failure names its currency.
    const numRuns = Math.max(5, Math.ceil(ctx.options.runs / 2));
    for (const code of rules.currencies)
      for (const mode of ['never', 'always'] as const) {
        // One shrunk counterexample is the finding; further currencies would repeat it at great cost.
        if (ctx.findings.length > 0) return;
        if (minimums[code] === null) continue;
        const name = `${mode === 'never' ? 'without' : 'with'}-sellers-${code}`;
        await ctx.property(
          name,
          validCreateCase(rules, { sellers: mode, currencies: [code], minimums }),
          async (createCase) => {
            const body = materialize(createCase, ctx.clock.now());
            const created = await createPayment(ctx.api, body);
            if (created.status !== 201)
              throw new RequirementError(
                'PAY-CREATE-RESPONSE-201',
                'Valid payment refused',
                `expected 201, got ${created.status}: ${created.text.slice(0, 300)}`,
                created.exchange,
              );
            const violations = checkFees(body, created.payment, currency(body.currency).minorUnits);
            // A documented property outranks the assumed rounding rule, which alone would only warn.
            const documented = violations.find((v) => !ASSUMED_FEE_PROPERTIES.includes(v.property));
            const violation = documented ?? violations[0];
            if (violation)
              throw new RequirementError(
                REQUIREMENT[violation.property],
                `Fee property broken: ${violation.property}`,
                violation.message,
                created.exchange,
              );
            ctx.judged(...judgedBy(body));
          },
          { numRuns },
        );
      }
  },
});

/** The rules checkFees judged on a body whose payment broke none of them. */
function judgedBy(body: CreateBody): string[] {
  const always = [
    'PAY-CREATE-RESPONSE-201',
    'FMT-AMOUNT-DECIMAL-STRING',
    'PAY-FEE-SUM-IDENTITY',
    'PAY-FEE-SERVICE-RATE',
    'PAY-FEE-ROUND-HALF-UP',
    'PAY-FEE-MINOR-UNIT-FORMAT',
    ...(currency(body.currency).minorUnits === 0 ? ['FMT-ZERO-DECIMAL-AMOUNTS'] : []),
  ];
  if (!body.sellers?.length) return always;
  return [
    ...always,
    'PAY-FEE-SELLERS-PROPORTIONAL',
    'PAY-FEE-SELLER-AMOUNT-AFTER-FEE',
    'PAY-FEE-SHARE-FLOOR-OR-CEIL',
    ...(body.merchantAmount === undefined ? ['PAY-CREATE-MERCHANT-AMOUNT-REMAINDER'] : []),
  ];
}
