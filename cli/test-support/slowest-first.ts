// vitest sequencer: the test files known to take longest start first. Two forks share the files; a long file started
// last runs alone at the end (in a clean clone vitest has no cached durations and orders by file size, so the 100 s
// crash test started near the end of CI). Durations come from test-timings.json (files of 5 s or more, measured in
// CI; `node scripts/update-test-timings.mjs <vitest json report>` rewrites it). Files it does not list keep vitest's
// own order (its cache where it has one) after the listed ones.
import { readFileSync } from 'node:fs';
import { relative } from 'node:path';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

const timings = JSON.parse(readFileSync(new URL('./test-timings.json', import.meta.url), 'utf8')) as { seconds: Record<string, number> };

export default class SlowestFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const ordered = await super.sort(files);
    const seconds = (spec: TestSpecification) => timings.seconds[relative(spec.project.config.root, spec.moduleId)] ?? 0;
    // Array.prototype.sort is stable: equal (and unlisted) files keep the base order.
    return ordered.sort((a, b) => seconds(b) - seconds(a));
  }
}
