// Every default of the conformance suite, in one place. The CLI and runConformance() read these;
// nothing else hard-codes a default.
import { availableParallelism } from 'node:os';

/** Checks mostly wait (on the target, a chain, a receiver, the browser): twice the cores keeps both busy, 4 to 8. */
const defaultWorkers = (): number => Math.min(8, Math.max(4, 2 * availableParallelism()));

export const REPORT_FORMATS = ['console', 'json', 'junit', 'html', 'md', 'ndjson'] as const;
export type ReportFormat = (typeof REPORT_FORMATS)[number];

export const DEFAULTS = {
  /** Control API location relative to the base URL when --control-url is not given (probed). */
  controlPath: '/control/v1',
  control: true,
  webhooks: true,
  /** Listen on loopback, any free port. */
  webhookListen: '127.0.0.1:0',
  strict: false,
  only: [] as string[],
  skip: [] as string[],
  /** fast-check runs per property; model-based checks use a fraction of it (see runsFor). */
  runs: 20,
  reportDir: 'reports/conformance',
  formats: ['console', 'json', 'junit', 'html', 'md'] as ReportFormat[],
  /** Deadline of one request to the implementation (connect, headers and the whole body). */
  requestTimeoutMs: 15_000,
  /** Bytes of a response body the suite reads at most: far above any body of the contract, far below what hurts. */
  maxResponseBytes: 8 * 1024 * 1024,
  /** A check still running after this long is given up: its requests are aborted, its result is `error`. */
  checkTimeLimitMs: 180_000,
  /** Upper bound on the time one property may spend (runs + shrinking). */
  propertyTimeLimitMs: 30_000,
  /** How long to wait for a webhook that should arrive. */
  webhookWaitMs: 5_000,
  /** Quiet period that must pass before "no (more) deliveries" is concluded. */
  webhookQuietMs: 300,
  /** Tolerance on webhook retry times measured from X-Service-Timestamp. */
  retryToleranceSeconds: 2,
  /** Requests the rate-limit check may spend to reach 429 without a control API. */
  rateLimitProbeBudget: 300,
  /** Against a target the suite started (black-box run): the simulator's default 6000 per window is in reach. */
  rateLimitBlackBoxBudget: 10_000,
  /** Limit the rate-limit check sets through the control API to reach 429 quickly. */
  rateLimitProbeLimit: 5,
  /** Settings restored after the rate-limit check (the simulator's documented default). */
  rateLimitRestore: { limit: 6000, windowSeconds: 60 },
  /** Parallel creates in the externalId burst. */
  burstSize: 8,
  /** Payments created while walking the list in the pagination check. */
  paginationItems: 45,
  progress: true,
  /** Checks run at once where their resources allow (--workers). */
  workers: defaultWorkers(),
} as const;

export const API_KEY_ENV = 'STABLEPAY_API_KEY';
export const CONTROL_TOKEN_ENV = 'STABLEPAY_CONTROL_TOKEN';
