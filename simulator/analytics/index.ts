export { summarize } from './summary.ts';
export type { AnalyticsSummary } from './summary.ts';
export { paymentsCsv, csvField, CSV_COLUMNS } from './csv-export.ts';
export { analyticsRoutes, ANALYTICS_WINDOW_MS } from './routes.ts';
