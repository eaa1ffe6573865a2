// The options createSimulator refuses, checked without building anything. Its own module, importing only what the
// check needs, so `stablepay start` can refuse a bad flag (and start the chains) before the rest of the simulator
// has loaded.
import { API_KEY_PATTERN } from '../core/api-keys/api-key.ts';
import { checkControlToken } from '../edge/control/require-control-token.ts';
import { resolveFaults } from '../faults/resolve-faults.ts';
import type { SimulatorOptions } from './options.ts';

/** Throws (RangeError, UnknownFaultError) on options createSimulator would refuse: callers check before starting chains. */
export function checkSimulatorOptions(options: Pick<SimulatorOptions, 'defaultApiKey' | 'faults' | 'controlToken'>): void {
  if (options.defaultApiKey !== undefined && !API_KEY_PATTERN.test(options.defaultApiKey)) {
    throw new RangeError('defaultApiKey must be pk_ followed by 8 to 128 letters or digits');
  }
  resolveFaults(options.faults);
  if (options.controlToken !== undefined) checkControlToken(options.controlToken);
}
