// The replay recipe of a failed or warned check: the short `stablepay replay <report> --check <id>` line, the secrets
// it reads and where to find them, or why no replay can run against a running implementation. Written into every
// report format from the run's options; the report holds the one run seed and the fast-check paths the command reads.
import { join } from 'node:path';
import { API_KEY_ENV, CONTROL_TOKEN_ENV } from '../defaults.ts';
import { headerVariable } from '../http/redact.ts';
import type { ResolvedOptions } from '../options.ts';
import type { CheckResult, ReplayRecipe, SecretNeed } from '../types.ts';
import { ownSecretWhere, SECOND_API_KEY_ENV } from './secret-needs.ts';

export interface RecipeRun {
  options: Pick<ResolvedOptions, 'reportDir' | 'formats' | 'reportDirExplicit' | 'controlToken' | 'secondApiKey' | 'headers' | 'seed'>;
  /** The run started the implementation itself (--target-command / --target-image) and stopped it at the end. */
  startedTarget: boolean;
  /** The run had a control API (without one, a clock was moved from outside, by libfaketime, if at all). */
  control: boolean;
}

/** A word the shell reads as itself: quoted when it holds anything else. */
export function shellWord(word: string): string {
  return /^[\w@%+=:,./-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`;
}

/** The JSON report the replay line names: the file the run wrote, or where it would be when it went to stdout or was not asked for. */
function reportPath(options: RecipeRun['options']): string {
  return join(options.reportDir, 'conformance.json');
}

export function replayRecipeFor(check: CheckResult, run: RecipeRun): ReplayRecipe | undefined {
  if (check.result !== 'fail' && check.result !== 'warn') return undefined;
  const { options } = run;
  const rerun = `stablepay conformance <the run's target flags> --only ${check.id} --seed ${options.seed}`;
  if (check.needs.includes('customer'))
    return {
      command: null,
      needs: [],
      why: `it pays through the hosted page in a browser on the suite's own chains, which only a black-box run has: rerun ${rerun}`,
    };
  if (!run.control && check.tags.includes('clock'))
    return {
      command: null,
      needs: [],
      why: `it moved the implementation's clock from outside (libfaketime in a black-box run), which a replay against a running implementation cannot: rerun ${rerun}`,
    };
  const needs: SecretNeed[] = [{ variable: API_KEY_ENV, where: ownSecretWhere(API_KEY_ENV)! }];
  if (options.controlToken) needs.push({ variable: CONTROL_TOKEN_ENV, where: ownSecretWhere(CONTROL_TOKEN_ENV)! });
  if (options.secondApiKey) needs.push({ variable: SECOND_API_KEY_ENV, where: ownSecretWhere(SECOND_API_KEY_ENV)! });
  const words = ['stablepay', 'replay', shellWord(reportPath(options)), '--check', check.id];
  const command = [
    ...words,
    ...Object.keys(options.headers).flatMap((name) => {
      const variable = headerVariable(name);
      needs.push({ variable, where: ownSecretWhere(variable)! });
      return ['-H', `"${name}: $${variable}"`];
    }),
  ].join(' ');
  const notes: string[] = [];
  if (!options.formats.includes('json')) notes.push('the run wrote no JSON report, which the replay reads: rerun with --format json');
  else if (!options.reportDirExplicit && !options.formats.includes('console') && !options.formats.includes('ndjson'))
    notes.push(`the JSON report went to stdout: give the file you saved it in instead of ${reportPath(options)}`);
  if (run.startedTarget) notes.push('the run started the implementation itself and stopped it: start it and give its URL with --base-url');
  return { command, needs, ...(notes.length ? { note: notes.join('; ') } : {}) };
}
