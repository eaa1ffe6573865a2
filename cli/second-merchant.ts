// A second merchant with a known API key, so a black-box conformance run (no control API to create merchants) can
// check that one merchant never sees another's payments. Created like the default merchant, at start-up.
import type { Simulator } from '@stablepay/simulator';
import { API_KEY_PATTERN } from '@stablepay/simulator/api-key';

export const SECOND_API_KEY_ENV = 'STABLEPAY_SECOND_API_KEY';

/** Checked before anything starts, so a bad key never leaves a half-started server. */
export function checkSecondApiKey(key: string, defaultApiKey: string | undefined): void {
  if (!API_KEY_PATTERN.test(key))
    throw new Error(`the second merchant's API key must look like pk_ followed by 8 to 128 letters or digits`);
  if (key === defaultApiKey) throw new Error("the second merchant's API key must differ from the default merchant's");
}

export function addSecondMerchant(simulator: Simulator, key: string): void {
  checkSecondApiKey(key, simulator.defaultApiKey);
  // Durable mode: the second merchant of an earlier start is still there with its key.
  if (simulator.keys.findByKey(key)) return;
  const now = simulator.clock.now();
  const merchant = simulator.merchants.create({ name: 'Second merchant' }, now);
  simulator.keys.create(merchant.id, { name: 'Second merchant key', key }, now);
}
