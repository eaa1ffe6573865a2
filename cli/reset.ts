// `stablepay reset`: POST /control/v1/reset on a running simulator — every store emptied, the clock
// back at wall time, a fresh default merchant. With --api-key (or STABLEPAY_API_KEY) that key stays
// the default merchant's key; otherwise the one the simulator was started with, else a new one.
// `stablepay reset --merchant`: POST /control/v1/merchant/reset as the merchant of --api-key — that merchant's
// payments, payouts, deliveries and ledger gone and its clock back at the sandbox time; nobody else's world changes.
import { type Command, Option } from 'commander';
import type { MerchantResetResult, ResetResult } from '@stablepay/contract/types';
import { addRemoteOptions, Remote, remoteAction, type RemoteFlags } from './remote.ts';

const EXAMPLES = [
  '',
  'Examples:',
  '  $ stablepay reset                                   # the simulator on 127.0.0.1:4000',
  '  $ stablepay reset --api-key pk_local12345678        # keep using this key afterwards',
  '  $ STABLEPAY_BASE_URL=http://127.0.0.1:4100 stablepay reset',
  "  $ stablepay reset --merchant --api-key pk_...          # only this merchant's payments, payouts, deliveries and clock",
].join('\n');

interface ResetFlags extends RemoteFlags {
  merchant?: boolean;
}

export function registerResetCommand(program: Command): Command {
  return addRemoteOptions(
    program
      .command('reset')
      .description('Empty a running simulator: no merchants, payments, endpoints or deliveries; clock back to wall time'),
    'the default merchant key to keep after the reset (default: the start-up key, else a new one); with --merchant, the merchant to reset',
  )
    .addOption(new Option('--merchant', 'reset only the merchant of --api-key: its payments, payouts, deliveries, ledger and clock'))
    .addHelpText('after', `${EXAMPLES}\n\nExit codes: 0 reset, 1 the simulator could not be reached, 2 usage error or refusal.`)
    .action(
      remoteAction('reset', async (flags: ResetFlags) => {
        const remote = new Remote(flags);
        if (flags.merchant) {
          remote.requireKey();
          const result = (await remote.expect('POST', '/control/v1/merchant/reset', [200], { auth: true })) as MerchantResetResult;
          const { payments, payouts, deliveries, transactions } = result.removed;
          console.log(
            `reset: merchant ${result.merchantId}, clock at ${result.now}; removed ${payments} payments, ${payouts} payouts, ${deliveries} deliveries, ${transactions} transactions`,
          );
          return;
        }
        const result = (await remote.expect('POST', '/control/v1/reset', [200], {
          body: flags.apiKey ? { apiKey: flags.apiKey } : {},
        })) as ResetResult;
        console.log(`reset: clock at ${result.now}, default merchant ${result.merchantId}`);
        // The key is printed only when it is not the one the caller already holds.
        if (result.apiKey !== flags.apiKey) console.log(`  Default API key: ${result.apiKey}`);
      }),
    );
}
