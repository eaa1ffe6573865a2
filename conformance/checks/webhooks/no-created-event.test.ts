// webhooks.no-created-event judges what the creates could have caused. The first check to need the premise
// payments.minimum-amounts runs its probe in its own scope: the probe's payments are created and cancelled there, so
// their payment.cancelled events are routed to that check. Seen when the run order put this check first: it failed a
// correct simulator for 14 such cancellations.
import { describe, expect, it } from 'vitest';
import { recordedDelivery } from '../../test-support/delivery.ts';
import { causedByCreates } from './no-created-event.ts';

const OWN = ['own-1', 'own-2', 'own-3'];

describe('webhooks.no-created-event: what the creates caused', () => {
  it("leaves out the cancellations of the premise probe's payments", () => {
    expect(
      causedByCreates([recordedDelivery('payment.cancelled', 'probe-1'), recordedDelivery('payment.cancelled', 'probe-2')], OWN),
    ).toEqual([]);
  });

  it('keeps a payment.created, whichever payment it names', () => {
    const created = recordedDelivery('payment.created', 'probe-1');
    expect(causedByCreates([recordedDelivery('payment.cancelled', 'probe-2'), created], OWN)).toEqual([created]);
  });

  it("keeps any event about the check's own payments", () => {
    const own = recordedDelivery('payment.cancelled', 'own-2');
    expect(causedByCreates([own, recordedDelivery('payment.cancelled', 'probe-1')], OWN)).toEqual([own]);
  });
});
