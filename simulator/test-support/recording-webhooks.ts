// A WebhookService that records what the core emits instead of delivering it: lets tests assert
// exactly which events each action produced, independent of endpoint configuration.
import type { WebhookEvent, WebhookService } from '../core/webhooks/index.ts';

export interface RecordedEvent extends WebhookEvent {
  merchantId: string;
}

export interface RecordingWebhookService extends WebhookService {
  readonly emitted: RecordedEvent[];
  types(): string[];
  clear(): void;
}

export function createRecordingWebhooks(): RecordingWebhookService {
  const emitted: RecordedEvent[] = [];
  let closed = false;
  return {
    emitted,
    types: () => emitted.map((e) => e.type),
    clear: () => {
      emitted.length = 0;
    },
    emit(merchantId, event) {
      if (!closed) emitted.push({ merchantId, ...event });
    },
    async close() {
      closed = true;
    },
    deliveries: () => [],
    idle: async () => undefined,
  };
}
