// The gate's options (gate.ts), declared as data like every option: a leaf module, so options.ts can gather them.
import type { OptionDeclaration } from './option-declaration.ts';

export interface GateOptions {
  /** Fail the run unless at least this percentage of the documented requirements was exercised (0-100). */
  requireCoverage?: number;
  /** Fail the run unless every check these selectors pick (ids, prefixes, tags, requirement ids) passed. */
  require?: string[];
}

export const GATE_OPTION_DECLARATIONS: OptionDeclaration<keyof GateOptions>[] = [
  {
    name: 'requireCoverage',
    flags: '--require-coverage <percent>',
    description: 'exit 1 unless at least this % of the documented requirements was exercised',
    parser: 'percent',
  },
  {
    name: 'require',
    flags: '--require <checks>',
    description:
      'exit 1 unless every check these ids, prefixes, tags or requirement ids select passed (comma-separated), e.g. --require browser',
    parser: 'list',
  },
];
