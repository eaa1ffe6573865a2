// The replay recipe and a curl line's note as plain lines, shared by the console, Markdown and JUnit writers (HTML
// renders the same parts as markup).
import type { FastCheckDetails, ReplayRecipe } from '../types.ts';

/** `replay: <command>` with what it reads, or `no replay: <why>`. */
export function replayLines(recipe: ReplayRecipe | undefined): string[] {
  if (!recipe) return [];
  if (!recipe.command) return [`no replay: ${recipe.why ?? 'none recorded'}`];
  return [
    `replay: ${recipe.command}`,
    ...recipe.needs.map((need) => `  needs ${need.variable}: ${need.where}`),
    ...(recipe.note ? [`  note: ${recipe.note}`] : []),
  ];
}

/** The counterexample a property shrank to; the replay line replays it (the report keeps its path for the command). */
export function counterexampleLine(fastCheck: FastCheckDetails): string {
  return `counterexample of ${fastCheck.property} after ${fastCheck.numRuns} run${fastCheck.numRuns === 1 ? '' : 's'}: ${fastCheck.counterexample}`;
}
