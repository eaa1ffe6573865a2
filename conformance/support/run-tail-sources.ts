// What the run-wide webhook checks' wait reads (webhooks/run-tail.ts), taken from a check's context.
import type { CheckContext } from '../context.ts';
import type { RunTailSources } from '../webhooks/run-tail.ts';

export const runTailSources = (ctx: CheckContext): RunTailSources => ({
  webhookWaitMs: ctx.options.webhookWaitMs,
  webhookQuietMs: ctx.options.webhookQuietMs,
  answered: () => ctx.services.recorder.answered('service'),
  deliveries: () => ctx.receiver.all(),
});
