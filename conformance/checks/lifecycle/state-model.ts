// The payment lifecycle as a fast-check model-based test: random sequences of create, get,
// cancel, list, clock advances and customer/chain actions on a fresh merchant, with the model
// compared against the implementation after every step.
import type { CheckContext } from '../../context.ts';
import fc from 'fast-check';
import { defineCheck } from '../../registry.ts';
import { LifecycleModel, type LifecycleReal } from '../../model/model.ts';
import { lifecycleCommands } from '../../model/commands/index.ts';
import { VIEW_REQUIREMENTS } from '../../model/view-rules.ts';
import { INVARIANT_REQUIREMENTS } from '../../model/field-lifetimes.ts';

export const stateModel = defineCheck({
  id: 'lifecycle.state-model',
  title: 'Model-based lifecycle: random command sequences keep the implementation equal to the state model',
  requirements: [
    'PAY-STATE-CREATE-TO-ACTIVE',
    'PAY-STATE-ACTIVE-TO-PROCESSING',
    'PAY-STATE-PROCESSING-TO-SUCCESSFUL',
    'PAY-STATE-PROCESSING-TO-FAILED',
    'PAY-STATE-ACTIVE-TO-EXPIRED',
    'PAY-STATE-ACTIVE-TO-CANCELLED',
    'PAY-STATE-FORWARD-ONLY',
    'PAY-CANCEL-ONLY-ACTIVE',
    'PAY-CANCEL-RESPONSE',
    'PAY-GET-RESPONSE-200',
    'PAY-STATE-TERMINAL-FINAL',
    'PAY-STATE-PROCESSING-NO-EXPIRY',
    'PAY-STATE-ACTIVE-NO-DIRECT-FAIL',
    'PAY-STATE-SUBMIT-AFTER-EXPIRY-REFUSED',
    'LIST-CURSOR-PAGINATED',
    'LIST-ENVELOPE-FIELDS',
    'LIST-ENVELOPE-DATA',
    'LIST-ORDER-NEWEST-FIRST',
    'LIST-NEXT-CURSOR-LAST-ID',
    ...VIEW_REQUIREMENTS,
    ...INVARIANT_REQUIREMENTS,
  ].filter((id, i, all) => all.indexOf(id) === i),
  level: 'documented',
  needs: ['control'],
  tags: ['model', 'property', 'clock'],
  resources: { exclusive: ['clock'] },
  premises: ['payments.minimum-amounts', 'list.item-key'],
  async run(ctx: CheckContext) {
    const numRuns = ctx.options.runs;
    await ctx.property(
      'commands',
      lifecycleCommands(30),
      async (commands) => {
        const { api } = await ctx.newMerchant('model run');
        const model = new LifecycleModel();
        model.now = await ctx.clock.refresh();
        const real: LifecycleReal = { ctx, api, control: ctx.control };
        await fc.asyncModelRun(() => ({ model, real }), commands);
      },
      { numRuns },
    );
  },
});
