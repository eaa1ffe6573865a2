// A check: its metadata plus the function that runs it against a CheckContext. It lives apart from types.ts so the
// shared vocabulary (results, failures, the recorded run) depends on nothing, while the context depends on it.
import type { CheckContext } from './context.ts';
import type { ResourceNeeds } from './scheduling/resources.ts';
import type { CheckMeta } from './types.ts';

export interface Check extends CheckMeta {
  /** What the check needs alone or counted (the runner schedules by it); none: it runs beside any other plain check. */
  resources?: ResourceNeeds;
  run(ctx: CheckContext): Promise<void>;
}
