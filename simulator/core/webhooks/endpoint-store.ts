// One webhook endpoint per merchant. Secrets live in a separate map, never on the record, so a
// record (or a view of it) can be logged or serialised without leaking the key; they are kept in
// clear only because every attempt must sign with them.
import { randomUUID } from 'node:crypto';
import { Conflict, NotFound } from '../refusals/refusals.ts';
import type { Persist } from '../support/persist.ts';
import { generateSecret } from './sign.ts';
import type { WebhookEndpointUpdateRequest } from '@stablepay/contract/types';
import type { WebhookEndpoint, WebhookEndpointWithSecret } from './types.ts';

/** The stored record is the wire view itself; the secret is kept apart (see above). */
type EndpointRecord = WebhookEndpoint;

export type EndpointPatch = WebhookEndpointUpdateRequest;

export const endpointNotFound = (): NotFound => new NotFound('Webhook endpoint');

export class EndpointStore {
  private readonly records = new Map<string, EndpointRecord>();
  /** merchantId -> current secret. */
  private readonly secrets = new Map<string, string>();
  /** Told about every change (durable mode): the record and its secret, which every attempt signs with. */
  persist: Persist | undefined;

  /** Puts back an endpoint read from the state directory. */
  restore(merchantId: string, stored: { record: WebhookEndpoint; secret: string }): void {
    this.records.set(merchantId, { ...stored.record });
    this.secrets.set(merchantId, stored.secret);
  }

  /** Durable mode: an endpoint as the database has it (undefined: gone), not reported again. */
  applyRecord(merchantId: string, stored: { record: WebhookEndpoint; secret: string } | undefined): void {
    if (stored) this.restore(merchantId, stored);
    else {
      this.records.delete(merchantId);
      this.secrets.delete(merchantId);
    }
  }

  private save(merchantId: string): void {
    const record = this.records.get(merchantId);
    const secret = this.secrets.get(merchantId);
    if (this.persist && record && secret !== undefined) this.persist.put('endpoint', merchantId, { record, secret });
  }

  get(merchantId: string): WebhookEndpoint | undefined {
    const record = this.records.get(merchantId);
    return record && { ...record };
  }

  /** Refuses with Conflict when the merchant already has an endpoint (one per merchant). */
  create(merchantId: string, input: { url: string; enabled: boolean }, nowIso: string): WebhookEndpointWithSecret {
    if (this.records.has(merchantId)) {
      throw new Conflict('A webhook endpoint already exists; update it with PUT /v1/webhooks');
    }
    const secret = generateSecret();
    const record: EndpointRecord = {
      id: randomUUID(),
      url: input.url,
      enabled: input.enabled,
      secretLast4: secret.slice(-4),
      createdAt: nowIso,
      updatedAt: nowIso,
    };
    this.records.set(merchantId, record);
    this.secrets.set(merchantId, secret);
    this.save(merchantId);
    return { ...record, secret };
  }

  /** Refuses with NotFound when none is configured. */
  update(merchantId: string, patch: EndpointPatch, nowIso: string): WebhookEndpoint {
    const record = this.records.get(merchantId);
    if (!record) throw endpointNotFound();
    if (patch.url !== undefined) record.url = patch.url;
    if (patch.enabled !== undefined) record.enabled = patch.enabled;
    record.updatedAt = nowIso;
    this.save(merchantId);
    return { ...record };
  }

  /** The old secret stops signing at once: attempts read the secret when they go out. */
  rotateSecret(merchantId: string, nowIso: string): WebhookEndpointWithSecret {
    const record = this.records.get(merchantId);
    if (!record) throw endpointNotFound();
    const secret = generateSecret();
    this.secrets.set(merchantId, secret);
    record.secretLast4 = secret.slice(-4);
    record.updatedAt = nowIso;
    this.save(merchantId);
    return { ...record, secret };
  }

  /** The signing key for the merchant's next attempt. */
  secretFor(merchantId: string): string | undefined {
    return this.secrets.get(merchantId);
  }
}
