// `stablepay reset`: POST /control/v1/reset on a running simulator — every store emptied, the clock
// back at wall time, a fresh default merchant. With --api-key (or STABLEPAY_API_KEY) that key stays
// the default merchant's key; otherwise the one the simulator was started with, else a new one.
import type { Command } from 'commander';
import type { ResetResult } from '@stablepay/contract/types';
import { addRemoteOptions, Remote, remoteAction, type RemoteFlags } from './remote.ts';

const EXAMPLES = [
  '',
  'Examples:',
  '  $ stablepay reset                                   # the simulator on 127.0.0.1:4000',
  '  $ stablepay reset --api-key pk_local12345678        # keep using this key afterwards',
  '  $ STABLEPAY_BASE_URL=http://127.0.0.1:4100 stablepay reset',
].join('\n');

export function registerResetCommand(program: Command): Command {
  return addRemoteOptions(
    program
      .command('reset')
      .description('Empty a running simulator: no merchants, payments, endpoints or deliveries; clock back to wall time'),
    'the default merchant key to keep after the reset (default: the start-up key, else a new one)',
  )
    .addHelpText('after', `${EXAMPLES}\n\nExit codes: 0 reset, 1 the simulator could not be reached, 2 usage error or refusal.`)
    .action(
      remoteAction('reset', async (flags: RemoteFlags) => {
        const remote = new Remote(flags);
        const result = (await remote.expect('POST', '/control/v1/reset', [200], {
          body: flags.apiKey ? { apiKey: flags.apiKey } : {},
        })) as ResetResult;
        console.log(`reset: clock at ${result.now}, default merchant ${result.merchantId}`);
        // The key is printed only when it is not the one the caller already holds.
        if (result.apiKey !== flags.apiKey) console.log(`  Default API key: ${result.apiKey}`);
      }),
    );
}
