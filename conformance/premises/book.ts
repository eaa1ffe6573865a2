// The premise book of one run: for every premise a check consulted, what the run established and how. Discovery
// comes first (what the implementation shows), then the implementation profile's declaration, and only then the
// simulator's choice, which stays unconfirmed. Checks may confirm or refute a premise by use (the body they sent was
// answered 2xx and read back as sent, or refused). The runner reads the book to cap findings (runner.ts).
import type { HttpClient } from '../http/client.ts';
import { PREMISES, type PremiseId, type PremiseValues } from './definitions.ts';

/**
 * discovered: observed on the implementation (with evidence); declared: from the implementation profile;
 * assumed: the simulator's choice, unconfirmed; refuted: what the suite sent or declared was shown not to hold.
 */
export type PremiseStatus = 'discovered' | 'declared' | 'assumed' | 'refuted';

/** What was sent and what was seen, in a line each (secrets are scrubbed with the whole report). */
export interface PremiseEvidence {
  sent: string;
  seen: string;
}

export interface PremiseState<Id extends PremiseId = PremiseId> {
  id: Id;
  status: PremiseStatus;
  value: PremiseValues[Id];
  evidence: PremiseEvidence[];
}

/** A premise as reports list it. */
export interface PremiseRecord {
  id: PremiseId;
  title: string;
  status: PremiseStatus;
  value: unknown;
  evidence: PremiseEvidence[];
  /** The checks that relied on it. */
  checks: string[];
  profileKey: string;
}

export type DiscoveryOutcome<V> =
  | { kind: 'discovered'; value: V; evidence: PremiseEvidence[] }
  /** The candidate (declared or the simulator's) was shown not to hold, and nothing else was found. */
  | { kind: 'refuted'; evidence: PremiseEvidence[] }
  /** Nothing conclusive: the declaration, else the simulator's choice, stands unconfirmed. */
  | { kind: 'inconclusive'; evidence: PremiseEvidence[] };

export interface DiscoveryEnv {
  /** The run's API client (its requests count for the check that first needed the premise). */
  api: HttpClient;
  /** Another premise a discovery builds on (e.g. the body a probe sends). */
  resolve<Id extends PremiseId>(id: Id): Promise<PremiseValues[Id]>;
  /** What a premise is taken to be before discovery: the declared value, else the simulator's. */
  candidate<Id extends PremiseId>(id: Id): PremiseValues[Id];
  /** The implementation's current time (ms). */
  now(): number;
  /** Registers a secret the discovery learnt (a probe key) so no report shows it. */
  secret(value: string, label: string): void;
  /** Runs `make` once per run under `key` (one probe serves the premises it shows). */
  once<T>(key: string, make: () => Promise<T>): Promise<T>;
}

/** Finds a premise on the implementation; `candidate` is the declared value, else the simulator's. */
export type Discoverer<Id extends PremiseId = PremiseId> = (
  env: DiscoveryEnv,
  candidate: PremiseValues[Id],
) => Promise<DiscoveryOutcome<PremiseValues[Id]>>;

export type Discoverers = { [Id in PremiseId]?: Discoverer<Id> };

export type Declarations = Partial<PremiseValues>;

export class PremiseBook {
  private readonly states = new Map<PremiseId, PremiseState>();
  private readonly pending = new Map<PremiseId, Promise<PremiseState>>();
  private readonly consulted = new Map<PremiseId, Set<string>>();
  private readonly probes = new Map<string, Promise<unknown>>();

  constructor(
    private readonly discoverers: Discoverers,
    private readonly declared: Declarations = {},
  ) {}

  /** The premise as this run knows it, discovering it first if nobody has yet. */
  async resolve<Id extends PremiseId>(id: Id, env: DiscoveryEnv, checkId: string): Promise<PremiseState<Id>> {
    this.note(id, checkId);
    const known = this.states.get(id);
    if (known) return known as PremiseState<Id>;
    let pending = this.pending.get(id);
    if (!pending) {
      pending = this.discover(id, env).then((state) => {
        this.states.set(id, state);
        this.pending.delete(id);
        return state;
      });
      this.pending.set(id, pending);
    }
    return (await pending) as PremiseState<Id>;
  }

  /** One probe per run, shared by the premises it shows (DiscoveryEnv.once). */
  once<T>(key: string, make: () => Promise<T>): Promise<T> {
    let probe = this.probes.get(key);
    if (!probe) {
      probe = make();
      this.probes.set(key, probe);
    }
    return probe as Promise<T>;
  }

  state<Id extends PremiseId>(id: Id): PremiseState<Id> | undefined {
    return this.states.get(id) as PremiseState<Id> | undefined;
  }

  /** Established premises may carry a documented verdict; assumed and refuted ones may not. */
  isEstablished(id: PremiseId): boolean {
    const status = this.states.get(id)?.status;
    return status === 'discovered' || status === 'declared';
  }

  /** A check showed the premise holds by using it (a body answered 2xx and read back as sent). */
  confirm<Id extends PremiseId>(id: Id, value: PremiseValues[Id], evidence: PremiseEvidence, checkId: string): void {
    this.note(id, checkId);
    const before = this.states.get(id);
    this.states.set(id, { id, status: 'discovered', value, evidence: [...(before?.evidence ?? []), evidence] });
  }

  /** A check showed the premise does not hold (the body it sent was refused, or not read back as sent). */
  refute(id: PremiseId, evidence: PremiseEvidence, checkId: string): void {
    this.note(id, checkId);
    const before = this.states.get(id);
    this.states.set(id, {
      id,
      status: 'refuted',
      value: before?.value ?? this.candidate(id),
      evidence: [...(before?.evidence ?? []), evidence],
    } as PremiseState);
  }

  /** Every premise the run consulted or the profile declared, in the order of the definitions. */
  records(): PremiseRecord[] {
    const ids = (Object.keys(PREMISES) as PremiseId[]).filter((id) => this.states.has(id) || this.declared[id] !== undefined);
    return ids.map((id) => {
      const state = this.states.get(id);
      const definition = PREMISES[id];
      return {
        id,
        title: definition.title,
        status: state?.status ?? 'declared',
        value: state?.value ?? this.declared[id],
        evidence: state?.evidence ?? [],
        checks: [...(this.consulted.get(id) ?? [])],
        profileKey: definition.profileKey,
      };
    });
  }

  private note(id: PremiseId, checkId: string): void {
    const checks = this.consulted.get(id) ?? new Set<string>();
    checks.add(checkId);
    this.consulted.set(id, checks);
  }

  candidate<Id extends PremiseId>(id: Id): PremiseValues[Id] {
    return (this.declared[id] ?? PREMISES[id].simulatorDefault) as PremiseValues[Id];
  }

  private async discover<Id extends PremiseId>(id: Id, env: DiscoveryEnv): Promise<PremiseState> {
    const declared = this.declared[id] as PremiseValues[Id] | undefined;
    const discoverer = this.discoverers[id] as Discoverer<Id> | undefined;
    let outcome: DiscoveryOutcome<PremiseValues[Id]> = { kind: 'inconclusive', evidence: [] };
    if (discoverer) {
      try {
        outcome = await discoverer(env, this.candidate(id));
      } catch (error) {
        outcome = {
          kind: 'inconclusive',
          evidence: [{ sent: `discovery of ${id}`, seen: error instanceof Error ? error.message : String(error) }],
        };
      }
    }
    if (outcome.kind === 'discovered') {
      const differs = declared !== undefined && JSON.stringify(declared) !== JSON.stringify(outcome.value);
      const evidence = differs
        ? [
            ...outcome.evidence,
            {
              sent: `profile ${PREMISES[id].profileKey}`,
              seen: `declared ${JSON.stringify(declared)}; the implementation shows ${JSON.stringify(outcome.value)}`,
            },
          ]
        : outcome.evidence;
      return { id, status: 'discovered', value: outcome.value, evidence } as PremiseState;
    }
    if (outcome.kind === 'refuted') return { id, status: 'refuted', value: this.candidate(id), evidence: outcome.evidence } as PremiseState;
    if (declared !== undefined) return { id, status: 'declared', value: declared, evidence: outcome.evidence } as PremiseState;
    return { id, status: 'assumed', value: PREMISES[id].simulatorDefault, evidence: outcome.evidence } as PremiseState;
  }
}

/** One line for a report: how the premise was established. */
export function describeStatus(status: PremiseStatus): string {
  switch (status) {
    case 'discovered':
      return 'discovered';
    case 'declared':
      return 'declared in the profile';
    case 'assumed':
      return "the simulator's choice, unconfirmed";
    case 'refuted':
      return 'refuted';
  }
}
