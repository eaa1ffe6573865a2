// Starts the fixture service on a loopback port, in this process (tests drive it directly, with its control API when
// asked) or as a black-box target (main.ts). A sweep every 100 ms expires what fell due and starts due webhook
// attempts, by whatever clock the process has: the control API's offset, or libfaketime's.
import type { AddressInfo } from 'node:net';
import { createAdaptorServer } from '@hono/node-server';
import { fixtureApp } from './app.ts';
import type { FixtureOptions } from './choices.ts';
import { fireDue } from './deliveries.ts';
import { expirePayouts } from './routes-control.ts';
import { expirePayments } from './routes-payments.ts';
import { FixtureState, newKey } from './state.ts';

export interface RunningFixture {
  url: string;
  apiKey: string;
  secondApiKey: string;
  state: FixtureState;
  close(): Promise<void>;
}

const SWEEP_MS = 100;

export async function startFixtureService(
  options: FixtureOptions & { host?: string; port?: number; publicUrl?: string } = {},
): Promise<RunningFixture> {
  const state = new FixtureState(options);
  const apiKey = options.apiKey ?? newKey();
  const secondApiKey = options.secondApiKey ?? newKey();
  state.addMerchant('default', apiKey);
  state.addMerchant('second', secondApiKey);
  let url = '';
  const app = fixtureApp(state, { control: options.control ?? false, payUrl: () => options.publicUrl ?? url });
  const server = createAdaptorServer({ fetch: app.fetch });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, options.host ?? '127.0.0.1', () => resolve());
  });
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const sweep = setInterval(() => {
    expirePayments(state);
    expirePayouts(state);
    fireDue(state);
  }, SWEEP_MS);
  sweep.unref();
  return {
    url,
    apiKey,
    secondApiKey,
    state,
    close: async () => {
      clearInterval(sweep);
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
