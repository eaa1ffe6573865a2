export { summarize, SummaryTally, contribution } from './summary.ts';
export { AnalyticsTallies, TALLY_LEVELS_MS } from './tallies.ts';
export type { AnalyticsSummary } from './summary.ts';
export { paymentsCsv, paymentsCsvStream, csvField, CSV_COLUMNS } from './csv-export.ts';
