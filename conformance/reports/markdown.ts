// Markdown report: summary, results per check, failures with reproductions, traceability matrix.
import type { RunResult } from '../types.ts';
import { percent } from '../traceability.ts';
import { metadataLines } from '../run-metadata.ts';
import { deliveryText } from './delivery-text.ts';
import { limitsText, verdictOf } from './verdict.ts';
import { premiseRows } from './premises.ts';
import { curlNote } from '../reproduction/secret-needs.ts';

function cell(text: string): string {
  return text.replace(/\|/g, '\\|').replace(/\n/g, '<br>');
}

export function renderMarkdown(result: RunResult): string {
  const { summary } = result;
  const { counts } = summary;
  const out: string[] = [];
  out.push('# Conformance report', '');
  out.push(`- Implementation: ${summary.baseUrl}`);
  out.push(
    `- Control API: ${summary.controlUrl ?? 'not available'}; webhook receiver: ${summary.capabilities['webhook-receiver'] ? 'yes' : 'no'}`,
  );
  for (const note of summary.capabilityNotes) out.push(`  - ${note}`);
  out.push(`- Seed ${summary.seed}, ${summary.runs} runs per property${summary.strict ? ', strict mode' : ''}`);
  out.push(
    `- ${summary.startedAt} – ${summary.finishedAt} (${(summary.durationMs / 1000).toFixed(1)} s), ${summary.cases} generated cases, ${summary.requests} requests, ${summary.casesPerSecond} cases/s`,
  );
  out.push(`- **${verdictOf(summary, result.gate).text}**`);
  out.push(
    `- **${counts.passed} passed, ${counts.failed} failed**, ${counts.warned} warned, ${counts.notExercised} not exercised, ${counts.skipped} skipped${counts.errors ? `, **${counts.errors} errors**` : ''}`,
  );
  if (result.gate) out.push(result.gate.met ? '- Gate: met' : `- **Gate not met**: ${result.gate.unmet.join('; ')}`);
  out.push(`- Limits: ${limitsText(summary.limits)}`);
  if (summary.interrupted)
    out.push(`- **Interrupted**: ${summary.interrupted.message}; not run: ${summary.interrupted.notRun.join(', ') || 'none'}`);
  out.push('', '## Run', '');
  for (const [label, value] of metadataLines(result.metadata)) out.push(`- ${label}: \`${value}\``);
  out.push('');
  out.push('## Coverage', '', '| level | requirements | covered by the suite | exercised in this run |', '|---|---|---|---|');
  for (const c of result.coverage)
    out.push(
      `| ${c.level} | ${c.total} | ${c.covered} (${percent(c.covered, c.total)}) | ${c.exercised} (${percent(c.exercised, c.total)}) |`,
    );
  const premises = premiseRows(result);
  out.push(
    '',
    '## Premises',
    '',
    'What the run took for each shape the spec does not show, and how it knew (docs/implementers.md: declare the others in the profile).',
    '',
  );
  if (premises.length === 0) out.push('No premise was needed.');
  else {
    out.push('| premise | how established | value | evidence | profile key |', '|---|---|---|---|---|');
    for (const row of premises)
      out.push(
        `| \`${row.id}\` ${cell(row.title)} | ${row.how} | \`${cell(row.value)}\` | ${cell(row.evidence)} | \`${row.profileKey}\` |`,
      );
  }
  out.push('', '## Checks', '', '| check | result | level | requirements | time | cases |', '|---|---|---|---|---|---|');
  for (const check of result.checks) {
    const detail = check.result === 'error' ? check.error?.message.split('\n')[0] : check.reason;
    const result = detail ? `${check.result} (${detail})` : check.result;
    out.push(
      `| \`${check.id}\` ${cell(check.title)} | ${cell(result)} | ${check.level} | ${check.requirements.join(', ')} | ${check.durationMs} ms | ${check.cases} |`,
    );
  }
  if (result.failures.length > 0) {
    out.push('', '## Failures and warnings');
    const replayShown = new Set<string>();
    for (const failure of result.failures) {
      out.push(
        '',
        `### ${failure.severity.toUpperCase()} \`${failure.checkId}\` — ${failure.title}`,
        '',
        `Requirement: \`${failure.requirement}\``,
        '',
        '```text',
        failure.message,
        '```',
      );
      if (failure.reproduction) {
        out.push('', 'Reproduce:', '', '```sh', failure.reproduction, '```');
        const note = curlNote(failure.reproduction);
        if (note) out.push('', `_${note}_`);
      }
      if (failure.delivery)
        out.push('', `Delivery \`${failure.delivery.id}\` as received:`, '', '```text', deliveryText(failure.delivery), '```');
      // The check's replay once, under its first finding.
      const recipe = replayShown.has(failure.checkId) ? undefined : result.checks.find((check) => check.id === failure.checkId)?.replay;
      replayShown.add(failure.checkId);
      if (recipe?.command) {
        out.push('', 'Replay this check against the implementation with your own credentials:', '', '```sh', recipe.command, '```');
        for (const need of recipe.needs) out.push(`- needs \`${need.variable}\`: ${need.where}`);
        if (recipe.note) out.push(`- note: ${recipe.note}`);
      } else if (recipe) out.push('', `No replay: ${recipe.why ?? 'none recorded'}`);
    }
  }
  out.push('', '## Requirement traceability', '', '| requirement | level | section | checks | result |', '|---|---|---|---|---|');
  for (const row of result.traceability) {
    const checks = row.checks.map((c) => `${c.id} (${c.result})`).join(', ') || '—';
    out.push(
      `| \`${row.requirement.id}\` | ${row.requirement.level} | ${cell(row.requirement.section)} | ${cell(checks)} | ${row.result} |`,
    );
  }
  return `${out.join('\n')}\n`;
}
