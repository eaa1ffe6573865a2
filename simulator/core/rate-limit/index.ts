export type { SharedWindowCounter } from './fixed-window.ts';
export { FixedWindowLimiter, DEFAULT_RATE_LIMIT, rateLimitSettingsProblem } from './fixed-window.ts';
export type { RateLimitSettings, RateLimitDecision } from './fixed-window.ts';
