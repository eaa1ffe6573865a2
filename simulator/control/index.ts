export { controlRoutes } from './routes.ts';
export type { ControlDeps } from './control-deps.ts';
export { parseChoice, parseFailure } from './choice.ts';
