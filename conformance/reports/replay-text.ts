// The replay recipe and a curl line's note as plain lines, shared by the console, Markdown and JUnit writers (HTML
// renders the same parts as markup).
import type { ReplayRecipe } from '../types.ts';

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
