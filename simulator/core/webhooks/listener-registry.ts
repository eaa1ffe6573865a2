// Listener sessions (what `stablepay listen` registers, like Stripe's CLI sessions): besides the merchant's one
// endpoint, every event of the merchant is also delivered to each of its listeners, signed with that listener's own
// secret. A listener belongs to the API key that registered it (held as its hash), not to a merchant id, so the
// registry can outlive a reset of the simulator: the rebuilt default merchant holding the same key keeps its listeners.
import { randomUUID } from 'node:crypto';
import type { WebhookEventType } from './types.ts';

export interface Listener {
  readonly id: string;
  /** SHA-256 of the API key that registered it (api-keys/hashApiKey). */
  readonly keyHash: string;
  readonly url: string;
  /** Signs every delivery to this listener; chosen by the client (a stable secret per listener identity). */
  readonly secret: string;
  /** Only these events; every event when null. */
  readonly events: readonly WebhookEventType[] | null;
  readonly createdAt: string;
}

export type NewListener = Omit<Listener, 'id' | 'createdAt'>;

/** The most listeners one key may hold, so a forgotten loop cannot make every event fan out without end. */
export const MAX_LISTENERS_PER_KEY = 20;

export class ListenerRegistry {
  private readonly listeners = new Map<string, Listener>();

  add(input: NewListener, nowIso: string): Listener {
    const listener: Listener = { ...input, id: randomUUID(), createdAt: nowIso };
    this.listeners.set(listener.id, listener);
    return listener;
  }

  get(id: string): Listener | undefined {
    return this.listeners.get(id);
  }

  remove(id: string): boolean {
    return this.listeners.delete(id);
  }

  /** Oldest first. */
  all(): Listener[] {
    return [...this.listeners.values()];
  }

  countFor(keyHash: string): number {
    let count = 0;
    for (const listener of this.listeners.values()) if (listener.keyHash === keyHash) count++;
    return count;
  }
}

/** What the webhook service needs of the listeners: who gets an event of a merchant, and one listener by id. */
export interface ListenerTargets {
  /** The listeners a merchant's event goes to (their key still authenticates as that merchant; the event selected). */
  forEvent(merchantId: string, event: WebhookEventType): readonly Listener[];
  byId(id: string): Listener | undefined;
}

/** Targets over a registry; `merchantOfKey` says which merchant a key hash authenticates as now (undefined: none). */
export function listenerTargets(registry: ListenerRegistry, merchantOfKey: (keyHash: string) => string | undefined): ListenerTargets {
  return {
    forEvent: (merchantId, event) =>
      registry.all().filter((l) => (l.events === null || l.events.includes(event)) && merchantOfKey(l.keyHash) === merchantId),
    byId: (id) => registry.get(id),
  };
}
