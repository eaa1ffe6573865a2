// A check that only moves time gets a world of its own when the control API has test clocks: a test clock made for it,
// a fresh merchant on that clock in place of the run's, and the run's clock reading replaced by that clock's. Its
// advances then move no other check's time (expiries, retries, key lapses stay where they were), so it runs beside the
// others instead of alone (scheduling/resources.ts, `ownClock`). A fresh merchant is what the run's merchant is too: one
// the control API made with its defaults, so the check meets the same implementation.
import type { RunServices } from './context.ts';
import { ControlError } from './control/control-client.ts';
import { serverClock } from './scaffolding.ts';

export async function onOwnClock(services: RunServices, checkId: string): Promise<{ services: RunServices; clockId: string }> {
  const control = await services.control?.onOwnTestClock();
  if (!control?.testClock)
    throw new ControlError(
      `control API create test clock: no test clock of its own for ${checkId} (${control?.testClockMissing ?? 'none made'})`,
    );
  const merchant = await control.createMerchant(`conformance ${checkId}`);
  const clock = serverClock(control);
  await clock.refresh();
  return { services: { ...services, api: services.api.withCredential(merchant.credential), control, clock }, clockId: control.testClock };
}
