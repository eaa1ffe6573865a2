export { FixedWindowLimiter, DEFAULT_RATE_LIMIT, rateLimitSettingsProblem } from './fixed-window.ts';
export type { RateLimitSettings, RateLimitDecision } from './fixed-window.ts';
export { rateLimit } from '../../edge/v1/rate-limit.ts';
export type { RateLimitOptions } from '../../edge/v1/rate-limit.ts';
