// One check's door to the premise book: every premise it reads, confirms or refutes must be one it declares, and is
// remembered as consulted, so its findings rest on it by default (runner.ts, cap.ts). Evidence is scrubbed of the
// secrets the run knows before it is kept.
import type { HttpClient } from '../http/client.ts';
import type { SecretRegistry } from '../http/redact.ts';
import type { DiscoveryEnv, PremiseBook, PremiseEvidence, PremiseState } from './book.ts';
import type { PremiseId, PremiseValues } from './definitions.ts';

export interface CheckPremiseSetting {
  checkId: string;
  declared: readonly string[];
  book: PremiseBook;
  secrets: SecretRegistry;
  api: () => HttpClient;
  now: () => number;
}

export class CheckPremises {
  /** Premises this check consulted: by default its findings rest on all of them. */
  readonly consulted = new Set<PremiseId>();

  constructor(private readonly setting: CheckPremiseSetting) {}

  async state<Id extends PremiseId>(id: Id): Promise<PremiseState<Id>> {
    this.consult(id);
    return this.setting.book.resolve(id, this.discoveryEnv(), this.setting.checkId);
  }

  confirm<Id extends PremiseId>(id: Id, value: PremiseValues[Id], evidence: PremiseEvidence): void {
    this.consult(id);
    this.setting.book.confirm(id, value, this.scrubbed(evidence), this.setting.checkId);
  }

  refute(id: PremiseId, evidence: PremiseEvidence): void {
    this.consult(id);
    this.setting.book.refute(id, this.scrubbed(evidence), this.setting.checkId);
  }

  private consult(id: PremiseId): void {
    if (!this.setting.declared.includes(id))
      throw new Error(`check ${this.setting.checkId} consulted premise ${id}, which it does not declare`);
    this.consulted.add(id);
  }

  private scrubbed(evidence: PremiseEvidence): PremiseEvidence {
    return { sent: this.setting.secrets.scrub(evidence.sent), seen: this.setting.secrets.scrub(evidence.seen) };
  }

  private discoveryEnv(): DiscoveryEnv {
    const { book, secrets } = this.setting;
    return {
      api: this.setting.api(),
      resolve: async (id) => (await this.state(id)).value,
      candidate: (id) => book.candidate(id),
      now: () => this.setting.now(),
      secret: (value, label) => secrets.add(value, label),
      once: (key, make) => book.once(key, make),
    };
  }
}
