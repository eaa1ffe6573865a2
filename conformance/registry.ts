// The check registry: a check is a plain function plus metadata. Selection by --only/--skip
// accepts check ids, id prefixes ("auth" or "auth.*"), tags and requirement ids.
import type { Check } from './check.ts';
import { isPremiseId, type PremiseId } from './premises/definitions.ts';
import type { Capability } from './types.ts';
import { checkResourceNeeds } from './scheduling/resources.ts';

const CHECK_ID = /^[a-z0-9-]+(\.[a-z0-9-]+)+$/;
const CAPABILITIES: Capability[] = ['control', 'webhook-receiver', 'customer'];

/** A check as written: `premises` lists the assumed premises it may consult (none when absent). */
export type CheckDefinition = Omit<Check, 'premises'> & { premises?: PremiseId[] };

export function defineCheck(check: CheckDefinition): Check {
  if (!CHECK_ID.test(check.id)) throw new Error(`check id "${check.id}" must be <area>.<concept> in kebab-case`);
  if (check.requirements.length === 0) throw new Error(`check ${check.id} cites no requirement`);
  for (const need of check.needs) {
    if (!CAPABILITIES.includes(need)) throw new Error(`check ${check.id} needs unknown capability ${need}`);
  }
  checkResourceNeeds(check.id, check.resources);
  for (const premise of check.premises ?? []) {
    if (!isPremiseId(premise)) throw new Error(`check ${check.id} relies on unknown premise ${premise}`);
  }
  return Object.freeze({
    ...check,
    requirements: [...new Set(check.requirements)],
    tags: [...new Set([check.id.split('.')[0]!, ...check.tags])],
    premises: [...new Set(check.premises ?? [])],
  });
}

export class CheckRegistry {
  private readonly checks = new Map<string, Check>();

  constructor(checks: Check[] = []) {
    for (const check of checks) this.register(check);
  }

  register(check: Check): void {
    if (this.checks.has(check.id)) throw new Error(`duplicate check id ${check.id}`);
    this.checks.set(check.id, check);
  }

  all(): Check[] {
    return [...this.checks.values()];
  }

  get(id: string): Check | undefined {
    return this.checks.get(id);
  }
}

export function matchesSelector(check: Pick<Check, 'id' | 'tags' | 'requirements'>, selector: string): boolean {
  const wanted = selector.trim();
  if (!wanted) return false;
  if (check.id === wanted) return true;
  const prefix = wanted.endsWith('.*') ? wanted.slice(0, -2) : wanted;
  if (check.id.startsWith(`${prefix}.`)) return true;
  if (check.tags.includes(wanted)) return true;
  return check.requirements.includes(wanted);
}

export interface Selection {
  selected: Check[];
  skipped: { check: Check; reason: string }[];
}

export function selectChecks(checks: Check[], only: string[], skip: string[]): Selection {
  const selection: Selection = { selected: [], skipped: [] };
  for (const check of checks) {
    if (only.length > 0 && !only.some((selector) => matchesSelector(check, selector))) {
      selection.skipped.push({ check, reason: `not selected by --only ${only.join(',')}` });
      continue;
    }
    const skippedBy = skip.find((selector) => matchesSelector(check, selector));
    if (skippedBy) {
      selection.skipped.push({ check, reason: `excluded by --skip ${skippedBy}` });
      continue;
    }
    selection.selected.push(check);
  }
  return selection;
}

/** Selectors that match no check are almost always typos: the CLI refuses them. */
export function unknownSelectors(checks: Check[], selectors: string[]): string[] {
  return selectors.filter((selector) => !checks.some((check) => matchesSelector(check, selector)));
}
