import { describe, expect, it } from 'vitest';
import { createSimulator } from '../../runtime/app.ts';
import { startChainNetwork, type ChainNetwork } from '@stablepay/chains';
import { TEST_API_KEY } from '../../test-support/harness.ts';

const SYNC_FAILED = 'could not move chain time with the virtual clock';

/** A network whose time moves wait at a gate, so a move can be held in flight while the chains stop. */
function gatedNetwork(network: ChainNetwork) {
  let open: () => void = () => undefined;
  let gate: Promise<void> | undefined;
  const gated: ChainNetwork = {
    ...network,
    syncTime: async (unixMs) => {
      if (gate) await gate;
      return network.syncTime(unixMs);
    },
  };
  return {
    network: gated,
    hold: () => {
      gate = new Promise<void>((resolve) => (open = resolve));
    },
    release: () => open(),
  };
}

describe('chain time moves that meet stopped chains', () => {
  const start = async () => {
    const own = await startChainNetwork({ chains: [8453] });
    const gated = gatedNetwork(own);
    const errors: string[] = [];
    const simulator = createSimulator({
      defaultApiKey: TEST_API_KEY,
      chainNetwork: gated.network,
      logger: { info: () => undefined, error: (message) => errors.push(message) },
    });
    return { own, gated, errors, simulator };
  };

  it('are logged while the simulator runs (a chain that cannot follow the clock is reported)', async () => {
    const { own, gated, errors, simulator } = await start();
    gated.hold();
    const advancing = simulator.clock.advance(60_000);
    await own.stop();
    gated.release();
    await advancing;
    expect(errors).toContain(SYNC_FAILED);
    await simulator.close();
  });

  it('are not logged once the simulator is closing: a move still in flight at a stop is the stop, not a fault', async () => {
    const { own, gated, errors, simulator } = await start();
    gated.hold();
    const advancing = simulator.clock.advance(60_000);
    const closing = simulator.close();
    await own.stop();
    gated.release();
    await Promise.all([advancing, closing]);
    expect(errors).not.toContain(SYNC_FAILED);
  });
});
