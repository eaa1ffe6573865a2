// Turns the spare target instances of a black-box run into lanes (scheduling/lanes.ts): each a RunServices rebound to
// its instance (its base URL with the run's key, its libfaketime clock, a run endpoint of its own on the suite's one
// receiver), sharing the run's recorder, created payments and payment histories, so the reports and the history
// checks see every instance's payments (ids are unique; each exchange says which instance answered it).
// Before any lane is used, isolation is discovered: a payment created on the main instance must be unknown to every
// spare. A spare that knows it shares a store with the main one (one database behind several processes): its checks
// would see the others' payments and keys, so the run uses no lanes and says why (a note, never a failure).
import type { RunServices, TimeTravel } from '../context.ts';
import { HttpClient, type HttpClientOptions } from '../http/client.ts';
import { serverClock } from '../scaffolding.ts';
import { LanePool } from '../scheduling/lanes.ts';
import { RunEndpoint } from '../webhooks/run-endpoint.ts';
import type { BlackBox } from './start-black-box.ts';
import type { CustomerServices } from '../customer/start-customer.ts';

export interface LaneInputs {
  main: BlackBox;
  spares: readonly BlackBox[];
  /** The run's observer of answered requests, without the main endpoint's (each lane has an endpoint of its own). */
  observe: NonNullable<HttpClientOptions['observe']>;
  /** Wraps an instance's clock mover so only a check holding that clock may move it (index.ts). */
  guardTimeTravel: (travel: TimeTravel | null) => TimeTravel | null;
  /** The run's browser customer: each lane gets an agent paying on its instance's chains (same Chromium). */
  customer: CustomerServices | null;
}

/** A payment the probe creates on the main instance (an amount every currency's minimum allows), cancelled at once. */
const PROBE_BODY = { amount: '25.00', currency: 'EUR', title: 'conformance: are the target instances separate?', acceptedChains: [8453] };

/** The lanes of the run, or null (no spare, or none usable: `notes` says why). */
export async function laneWorlds(services: RunServices, inputs: LaneInputs, notes: string[]): Promise<LanePool<RunServices> | null> {
  if (inputs.spares.length === 0) return null;
  const candidates = inputs.spares.flatMap((spare, index) => {
    // A spare whose clock the suite cannot move would leave its clock checks not exercised where the main one's are.
    if (Boolean(spare.timeTravel) !== Boolean(inputs.main.timeTravel)) {
      notes.push(
        `lanes: spare instance ${index + 1} is not used: its clock ${spare.timeTravel ? 'moves' : 'does not move'} and the main one's ${inputs.main.timeTravel ? 'does' : 'does not'}`,
      );
      return [];
    }
    const runEndpoint = services.receiver ? new RunEndpoint(services.receiver) : null;
    const observe: LaneInputs['observe'] = (client, request, response) => {
      inputs.observe(client, request, response);
      runEndpoint?.observe(client, request, response);
    };
    return [{ spare, runEndpoint, api: new HttpClient({ ...services.api.options, baseUrl: spare.baseUrl, instance: index + 1, observe }) }];
  });
  if (candidates.length === 0) return null;
  const isolation = await discoverIsolation(
    services.api,
    candidates.map((c) => c.api),
  );
  if (!isolation.separate) {
    notes.push(`lanes: not used: ${isolation.reason}; every check runs on the main instance (as with --instances 1)`);
    return null;
  }
  const worlds = candidates.map(
    ({ spare, api, runEndpoint }): RunServices => ({
      ...services,
      api,
      clock: serverClock(null, spare.now),
      timeTravel: inputs.guardTimeTravel(spare.timeTravel),
      runEndpoint,
      customer: inputs.customer ? { agent: inputs.customer.onChains(spare.chains), chains: spare.chains } : null,
      lanes: null,
    }),
  );
  notes.push(
    `lanes: ${worlds.length} spare instance${worlds.length === 1 ? '' : 's'} of the target (${candidates.map((c) => c.spare.baseUrl).join(', ')}), each with its own chains and clock: the checks that move the clock, spend the rate-limit window or need the main merchant's books or endpoint alone run there, beside the rest (${isolation.reason})`,
  );
  return new LanePool(worlds);
}

/**
 * Creates one payment on the main instance and reads it on every spare: a 404 everywhere means separate worlds. Any
 * other answer (the payment itself: one shared store; a refusal of the key: a spare that did not take the run's key)
 * means no lanes for this run. The probe payment is cancelled, so no clock jump expires it later.
 */
export async function discoverIsolation(main: HttpClient, spares: readonly HttpClient[]): Promise<{ separate: boolean; reason: string }> {
  const created = await main.post('/v1/payments', PROBE_BODY);
  const id = (created.json as { id?: unknown } | undefined)?.id;
  if (created.status !== 201 || typeof id !== 'string')
    return { separate: false, reason: `the isolation probe could not create a payment on the main instance (${created.status})` };
  try {
    const seen = await Promise.all(spares.map((spare) => spare.get(`/v1/payments/${encodeURIComponent(id)}`)));
    const known = seen.findIndex((response) => response.status !== 404);
    if (known >= 0)
      return {
        separate: false,
        reason:
          seen[known]!.status === 200
            ? `spare instance ${known + 1} sees the main instance's payments (one shared store)`
            : `spare instance ${known + 1} answered ${seen[known]!.status} to a read of the main instance's payment (404 expected)`,
      };
    return { separate: true, reason: 'a payment created on the main instance is unknown to every spare: they share no store' };
  } finally {
    await main.delete(`/v1/payments/${encodeURIComponent(id)}`).catch(() => undefined);
  }
}
