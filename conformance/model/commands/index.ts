// The lifecycle command set, in one place (fast-check model-based testing).
import fc from 'fast-check';
import { CHAIN_IDS } from '../../facts/fixtures.ts';
import { AdvanceClockCommand } from './advance-clock.ts';
import { CancelPaymentCommand } from './cancel-payment.ts';
import { ChainConfirmCommand } from './chain-confirm.ts';
import { ChainFailCommand } from './chain-fail.ts';
import { CreatePaymentCommand } from './create-payment.ts';
import { CustomerSubmitCommand } from './customer-submit.ts';
import { GetPaymentCommand } from './get-payment.ts';
import { ListPaymentsCommand } from './list-payments.ts';

const index = fc.nat(31);

export function lifecycleCommands(maxCommands: number) {
  return fc.commands(
    [
      fc
        .record({
          currency: fc.constantFrom('USD', 'EUR', 'JPY', 'BRL'),
          units: fc.integer({ min: 1, max: 5000 }),
          expires: fc.option(fc.integer({ min: 16, max: 240 }), { nil: null }),
          chains: fc.subarray(CHAIN_IDS, { minLength: 1 }),
        })
        .map(
          ({ currency, units, expires, chains }) =>
            new CreatePaymentCommand(
              currency,
              String(currency === 'JPY' ? units * 200 : currency === 'BRL' ? units * 5 : units),
              expires,
              chains,
            ),
        ),
      index.map((i) => new GetPaymentCommand(i)),
      index.map((i) => new CancelPaymentCommand(i)),
      fc.integer({ min: 1, max: 4 }).map((limit) => new ListPaymentsCommand(limit)),
      fc.tuple(fc.integer({ min: 1, max: 180 }), fc.nat(59)).map(([m, s]) => new AdvanceClockCommand(m, s)),
      fc.tuple(index, fc.nat(9)).map(([i, pair]) => new CustomerSubmitCommand(i, pair)),
      index.map((i) => new ChainConfirmCommand(i)),
      fc.tuple(index, fc.nat(1)).map(([i, f]) => new ChainFailCommand(i, f)),
    ],
    { maxCommands },
  );
}
