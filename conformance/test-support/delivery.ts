// A webhook delivery (webhooks/receiver.ts) made by hand for a test: `event` about `paymentId`, answered 200.
import type { Delivery } from '../webhooks/receiver.ts';

export function recordedDelivery(event: string, paymentId: string, receivedAt = 0): Delivery {
  const json = { event, data: { paymentId } };
  const rawBody = JSON.stringify(json);
  return {
    id: 'delivery-1',
    path: '/',
    method: 'POST',
    headers: {},
    rawBody,
    rawBytes: Buffer.from(rawBody),
    json,
    receivedAt,
    answeredStatus: 200,
  };
}
