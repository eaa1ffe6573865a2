// JUnit XML for CI: one testsuite per check area, one testcase per check. Warnings are not
// failures (they keep the build green) but show in system-out; not-exercised and skipped map to
// <skipped> with the reason, so nothing unexercised reads as passed.
import type { CheckResult, RunResult, RunSummary } from '../types.ts';
import type { RunMetadata } from '../run-metadata.ts';
import { premiseRows } from './premises.ts';
import { replayLines } from './replay-text.ts';
import { curlNote } from '../reproduction/secret-needs.ts';

export function escapeXml(text: string): string {
  return (
    text
      .replace(/&/g, '&amp;')
      .replace(/</g, '&lt;')
      .replace(/>/g, '&gt;')
      .replace(/"/g, '&quot;')
      // eslint-disable-next-line no-control-regex
      .replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f]/g, '')
  );
}

function testcase(check: CheckResult): string {
  const attrs = `name="${escapeXml(check.id)}" classname="conformance.${escapeXml(check.id.split('.')[0]!)}" time="${(check.durationMs / 1000).toFixed(3)}"`;
  const body: string[] = [];
  if (check.result === 'fail') {
    for (const failure of check.failures.filter((f) => f.severity === 'fail')) {
      const detail = [
        failure.message,
        failure.reproduction ? `reproduce: ${failure.reproduction}` : '',
        failure.reproduction ? (curlNote(failure.reproduction) ?? '') : '',
        ...replayLines(check.replay),
      ]
        .filter(Boolean)
        .join('\n');
      body.push(
        `      <failure type="${escapeXml(failure.requirement)}" message="${escapeXml(failure.title)}">${escapeXml(detail)}</failure>`,
      );
    }
  } else if (check.result === 'error') {
    // The check itself broke: an <error>, as JUnit has it for a test that could not run to a verdict. No stack here.
    body.push(
      `      <error type="error" message="${escapeXml(check.error?.message.split('\n')[0] ?? 'error')}">${escapeXml(check.error?.message ?? '')}</error>`,
    );
  } else if (check.result === 'not-exercised' || check.result === 'skipped') {
    body.push(`      <skipped message="${escapeXml(`${check.result}: ${check.reason ?? ''}`)}"/>`);
  }
  const warnings = check.failures.filter((f) => f.severity === 'warn');
  const out = [
    `title: ${check.title}`,
    `requirements: ${check.requirements.join(', ')}`,
    `result: ${check.result}`,
    ...warnings.map((w) => `WARN [${w.requirement}] ${w.title}: ${w.message}`),
  ];
  body.push(`      <system-out>${escapeXml(out.join('\n'))}</system-out>`);
  return `    <testcase ${attrs}>\n${body.join('\n')}\n    </testcase>`;
}

export function renderJunit(result: RunResult): string {
  const areas = new Map<string, CheckResult[]>();
  for (const check of result.checks) {
    const area = check.id.split('.')[0]!;
    areas.set(area, [...(areas.get(area) ?? []), check]);
  }
  // The run metadata on every suite, as surefire does: a CI that keeps one suite still knows what it ran against.
  const properties = renderMetadataProperties(
    result.metadata,
    result.summary,
    premiseRows(result).map((row) => [`stablepay.premise.${row.id}`, `${row.how}: ${row.value}`]),
  );
  const suites = [...areas].map(([area, checks]) => {
    const failures = checks.filter((c) => c.result === 'fail').length;
    const errors = checks.filter((c) => c.result === 'error').length;
    const skipped = checks.filter((c) => c.result === 'skipped' || c.result === 'not-exercised').length;
    const time = checks.reduce((sum, c) => sum + c.durationMs, 0) / 1000;
    return `  <testsuite name="conformance.${escapeXml(area)}" tests="${checks.length}" failures="${failures}" errors="${errors}" skipped="${skipped}" time="${time.toFixed(3)}">\n${properties}\n${checks.map(testcase).join('\n')}\n  </testsuite>`;
  });
  const { counts, durationMs } = result.summary;
  const total = result.checks.length;
  return `<?xml version="1.0" encoding="UTF-8"?>\n<testsuites name="stablepay conformance" tests="${total}" failures="${counts.failed}" errors="${counts.errors}" skipped="${counts.skipped + counts.notExercised}" time="${(durationMs / 1000).toFixed(3)}">\n${suites.join('\n')}\n</testsuites>\n`;
}

/** The run metadata as JUnit `<properties>` (`stablepay.contract.sha256`, `stablepay.seed`, ...). */
export function renderMetadataProperties(
  metadata: RunMetadata,
  summary?: Pick<RunSummary, 'limits' | 'interrupted'>,
  extra: [string, string][] = [],
): string {
  const { target } = metadata;
  const entries: [string, string][] = [
    ['stablepay.tool.version', metadata.tool.version],
    ['stablepay.contract.file', metadata.contract.file],
    ['stablepay.contract.sha256', metadata.contract.sha256],
    ['stablepay.catalogue.file', metadata.catalogue.file],
    ['stablepay.catalogue.sha256', metadata.catalogue.sha256],
    ['stablepay.seed', String(metadata.seed)],
    ['stablepay.target.baseUrl', target.baseUrl],
    ...(target.started?.kind === 'command' ? [['stablepay.target.command', target.started.command] as [string, string]] : []),
    ...(target.started?.kind === 'image'
      ? ([
          ['stablepay.target.image', target.started.image],
          ['stablepay.target.imageId', target.started.imageId ?? ''],
          ['stablepay.target.repoDigests', target.started.repoDigests.join(' ')],
        ] as [string, string][])
      : []),
    ['stablepay.startedAt', metadata.startedAt],
    ['stablepay.finishedAt', metadata.finishedAt],
    ...(summary ? limitProperties(summary) : []),
    ...extra,
  ];
  return `    <properties>\n${entries.map(([name, value]) => `      <property name="${escapeXml(name)}" value="${escapeXml(value)}"/>`).join('\n')}\n    </properties>`;
}

function limitProperties(summary: Pick<RunSummary, 'limits' | 'interrupted'>): [string, string][] {
  const { limits, interrupted } = summary;
  return [
    ['stablepay.limits.requestTimeoutMs', String(limits.requestTimeoutMs)],
    ['stablepay.limits.maxResponseBytes', String(limits.maxResponseBytes)],
    ['stablepay.limits.maxRunTimeMs', limits.maxRunTimeMs === null ? 'none' : String(limits.maxRunTimeMs)],
    ...(interrupted ? [['stablepay.interrupted', interrupted.message] as [string, string]] : []),
  ];
}
