export { referenceRoutes, type ReferenceDeps } from './routes.ts';
