// Isolation is discovered, never assumed: a spare that knows a payment made on the main instance shares its store, and
// the run then uses no lanes. The fixture service stands in for the target: two of them are two separate worlds, one
// reached twice is one shared store. Every exchange says which instance answered it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDispatcher, HttpClient } from '../http/client.ts';
import { Recorder } from '../http/recorder.ts';
import { SecretRegistry } from '../http/redact.ts';
import { startFixtureService, type RunningFixture } from '../test-support/fixture-service/server.ts';
import { discoverIsolation } from './lane-worlds.ts';

const dispatcher = createDispatcher();
const recorder = new Recorder();
let main: RunningFixture;
let other: RunningFixture;

const client = (fixture: RunningFixture, key: string, instance?: number) =>
  new HttpClient({
    baseUrl: fixture.url,
    target: 'service',
    recorder,
    secrets: new SecretRegistry(),
    credential: { key, label: 'STABLEPAY_API_KEY' },
    timeoutMs: 5_000,
    maxResponseBytes: 1 << 20,
    dispatcher,
    ...(instance ? { instance } : {}),
  });

beforeAll(async () => {
  main = await startFixtureService();
  // The same key on a second world, as the suite hands every instance the run's key.
  other = await startFixtureService({ apiKey: main.apiKey });
});
afterAll(async () => {
  await main?.close();
  await other?.close();
  await dispatcher.close();
});

describe('discoverIsolation', () => {
  it('finds separate worlds separate, and each exchange names the spare that answered', async () => {
    const outcome = await discoverIsolation(client(main, main.apiKey), [client(other, main.apiKey, 1)]);
    expect(outcome).toEqual({ separate: true, reason: expect.stringContaining('unknown to every spare') });
    const exchanges = recorder.all('service');
    expect(exchanges.map((e) => [e.method, e.status, e.instance])).toEqual([
      ['POST', 201, undefined],
      ['GET', 404, 1],
      ['DELETE', 200, undefined],
    ]);
  });

  it('finds one store reached twice shared, and says so', async () => {
    const outcome = await discoverIsolation(client(main, main.apiKey), [client(other, main.apiKey, 1), client(main, main.apiKey, 2)]);
    expect(outcome).toEqual({ separate: false, reason: "spare instance 2 sees the main instance's payments (one shared store)" });
  });

  it('uses no lanes when a spare refuses the run key', async () => {
    const outcome = await discoverIsolation(client(main, main.apiKey), [client(other, 'pk_unknown', 1)]);
    expect(outcome.separate).toBe(false);
    expect(outcome.reason).toBe("spare instance 1 answered 401 to a read of the main instance's payment (404 expected)");
  });
});
