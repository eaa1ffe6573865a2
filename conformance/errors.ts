// Signals a check raises. A RequirementError is a finding (the implementation broke a requirement);
// NotExercisedSignal means the run lacked something the check found it needs while running.
import type { Exchange } from './http/recorder.ts';
import type { PremiseId } from './premises/definitions.ts';

export class RequirementError extends Error {
  constructor(
    readonly requirement: string,
    readonly title: string,
    message: string,
    readonly exchange?: Exchange,
    /** The premises the finding rests on, when not every premise its check consulted (context.ts FindingOptions). */
    readonly premises?: PremiseId[],
  ) {
    super(message);
    this.name = 'RequirementError';
  }
}

export class NotExercisedSignal extends Error {
  constructor(readonly reason: string) {
    super(reason);
    this.name = 'NotExercisedSignal';
  }
}
