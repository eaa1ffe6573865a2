export { controlRoutes } from './routes.ts';
export type { ControlDeps } from './control-deps.ts';
export { parseChoice, parseFailure } from './choice.ts';
export { CONTROL_TOKEN_HEADER, checkControlToken, requireControlToken } from './require-control-token.ts';
export { controlExposure, describeControlExposure, isLoopbackHost, type ControlExposure } from './control-exposure.ts';
