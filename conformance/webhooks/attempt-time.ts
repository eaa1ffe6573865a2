// The simulator's own X-Simulator-Attempt-Timestamp: the attempt's instant on its virtual clock (not in the spec, never
// sent by a real implementation). The suite never times a retry by it (a header the implementation writes is no clock;
// webhooks/retry-timing.ts times attempts by arrival); it only helps tell two attempts from two copies of one.
export const ATTEMPT_TIME_HEADER = 'x-simulator-attempt-timestamp';
