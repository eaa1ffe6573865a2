// Every default of the simulator, in one place.
import { DEFAULT_RATE_LIMIT } from '../core/rate-limit/fixed-window.ts';

export const DEFAULTS = {
  host: '127.0.0.1',
  port: 4000,
  /** Same server as the API unless told otherwise. */
  payUrl: 'http://127.0.0.1:4000',
  rateLimit: DEFAULT_RATE_LIMIT,
  control: true,
  paymentTtlMs: 3_600_000,
  payoutTtlMs: 3_600_000,
  /** Assumed address of the service's fee collector (receives serviceFeeToken on-chain). */
  serviceFeeCollector: '0x5e7e5e7e5e7e5e7e5e7e5e7e5e7e5e7e5e7efee0',
  defaultMerchantName: 'Default merchant',
  /** Retry-After of a write the database could not take (down, read-only, full): it is retried every commit. */
  storageRetryAfterSeconds: 1,
} as const;

/** Environment variables `stablepay start` reads (flags win over them). */
export const ENV = {
  host: 'STABLEPAY_HOST',
  port: 'STABLEPAY_PORT',
  payUrl: 'STABLEPAY_PAY_URL',
  /** Set by the conformance suite's black-box harness: where the target is reached (fallback for the pay URL). */
  publicUrl: 'STABLEPAY_PUBLIC_URL',
  rateLimit: 'STABLEPAY_RATE_LIMIT',
  rateLimitWindow: 'STABLEPAY_RATE_LIMIT_WINDOW',
  apiKey: 'STABLEPAY_API_KEY',
  control: 'STABLEPAY_CONTROL',
  controlToken: 'STABLEPAY_CONTROL_TOKEN',
  controlInsecure: 'STABLEPAY_CONTROL_INSECURE',
  seed: 'STABLEPAY_SEED',
  chains: 'STABLEPAY_CHAINS',
  injectFaults: 'STABLEPAY_INJECT_FAULTS',
  logFormat: 'STABLEPAY_LOG_FORMAT',
  quiet: 'STABLEPAY_QUIET',
  chaosDeliveries: 'STABLEPAY_CHAOS_DELIVERIES',
  stateDir: 'STABLEPAY_STATE_DIR',
  databaseUrl: 'STABLEPAY_DATABASE_URL',
  maxPayments: 'STABLEPAY_MAX_PAYMENTS',
  maxStoredMb: 'STABLEPAY_MAX_STORED_MB',
} as const;
