// Self-contained HTML report for auditors: no external assets, no scripts needed to read it.
// Summary, coverage, the requirement traceability matrix, then every check with its failures.
import type { ResultKind, RunResult } from '../types.ts';
import { percent } from '../traceability.ts';
import { metadataLines, type RunMetadata } from '../integrity/run-metadata.ts';
import { deliveryText } from './delivery-text.ts';
import type { DeliveryEvidence } from '../webhooks/evidence.ts';

export function escapeHtml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#39;');
}

const STYLE = `
body{font:14px/1.45 system-ui,-apple-system,Segoe UI,sans-serif;margin:2rem auto;max-width:1200px;padding:0 1rem;color:#1d2330}
h1{margin-bottom:.2rem}h2{margin-top:2rem;border-bottom:1px solid #dde;padding-bottom:.3rem}
table{border-collapse:collapse;width:100%;margin:.5rem 0}th,td{border:1px solid #dde;padding:.3rem .5rem;text-align:left;vertical-align:top}
th{background:#f3f4f8}code,pre{font-family:ui-monospace,Menlo,Consolas,monospace;font-size:12.5px}
pre{background:#f6f7fa;padding:.6rem;overflow-x:auto;white-space:pre-wrap;word-break:break-all}
.r{font-weight:600;padding:.05rem .4rem;border-radius:3px;white-space:nowrap}
.pass{background:#dcf5e3;color:#135e2c}.fail{background:#fde0e0;color:#8a1212}.warn{background:#fff1cc;color:#7a5200}
.not-exercised{background:#e6e9f2;color:#3a4360}.skipped{background:#f1f1f1;color:#666}.not-covered{background:#fff;color:#999;border:1px dashed #bbb}
.counts span{margin-right:1rem}.muted{color:#667}`;

function badge(kind: ResultKind | 'not-covered'): string {
  return `<span class="r ${kind}">${kind}</span>`;
}

export function renderHtml(result: RunResult): string {
  const { summary } = result;
  const { counts } = summary;
  const h = escapeHtml;
  const parts: string[] = [];
  parts.push(`<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Conformance report — ${h(summary.baseUrl)}</title><style>${STYLE}</style></head><body>`);
  parts.push(`<h1>Conformance report</h1><p class="muted">${h(summary.tool.name)} ${h(summary.tool.version)} · ${h(summary.startedAt)} · ${(summary.durationMs / 1000).toFixed(1)} s</p>`);
  parts.push('<table>');
  parts.push(`<tr><th>Implementation</th><td><code>${h(summary.baseUrl)}</code></td></tr>`);
  parts.push(`<tr><th>Control API</th><td>${summary.controlUrl ? `<code>${h(summary.controlUrl)}</code>` : 'not available'}</td></tr>`);
  parts.push(`<tr><th>Webhook receiver</th><td>${summary.capabilities['webhook-receiver'] ? 'yes' : 'no'}</td></tr>`);
  if (summary.capabilityNotes.length) parts.push(`<tr><th>Notes</th><td>${summary.capabilityNotes.map(h).join('<br>')}</td></tr>`);
  parts.push(`<tr><th>Mode</th><td>${summary.strict ? 'strict (assumed requirements fail)' : 'default (assumed requirements warn)'}</td></tr>`);
  parts.push(`<tr><th>Seed / runs</th><td>${summary.seed} / ${summary.runs} per property</td></tr>`);
  parts.push(`<tr><th>Volume</th><td>${result.checks.length} checks, ${summary.cases} generated cases, ${summary.requests} requests, ${summary.casesPerSecond} cases/s</td></tr>`);
  parts.push('</table>');
  parts.push(renderMetadataHtml(result.metadata));
  parts.push(`<p class="counts"><span>${badge('pass')} ${counts.passed}</span><span>${badge('fail')} ${counts.failed}</span><span>${badge('warn')} ${counts.warned}</span><span>${badge('not-exercised')} ${counts.notExercised}</span><span>${badge('skipped')} ${counts.skipped}</span></p>`);

  parts.push('<h2>Coverage</h2><table><tr><th>Level</th><th>Requirements</th><th>Covered by the suite</th><th>Exercised in this run</th></tr>');
  for (const c of result.coverage) {
    parts.push(`<tr><td>${c.level}</td><td>${c.total}</td><td>${c.covered} (${percent(c.covered, c.total)})</td><td>${c.exercised} (${percent(c.exercised, c.total)})</td></tr>`);
  }
  parts.push('</table><p class="muted">Exercised: at least one citing check ran (pass, fail or warn). Not-exercised and skipped checks never count.</p>');

  parts.push('<h2>Requirement traceability matrix</h2><table><tr><th>Requirement</th><th>Level</th><th>Statement</th><th>Checks</th><th>Result</th></tr>');
  for (const row of result.traceability) {
    const checks = row.checks.length ? row.checks.map((c) => `<a href="#${h(c.id)}"><code>${h(c.id)}</code></a> ${badge(c.result)}`).join('<br>') : '<span class="muted">none</span>';
    parts.push(`<tr id="req-${h(row.requirement.id)}"><td><code>${h(row.requirement.id)}</code><br><span class="muted">${h(row.requirement.section)}</span></td><td>${row.requirement.level}</td><td>${h(row.requirement.statement)}</td><td>${checks}</td><td>${badge(row.result)}</td></tr>`);
  }
  parts.push('</table>');

  parts.push('<h2>Checks</h2>');
  for (const check of result.checks) {
    parts.push(`<h3 id="${h(check.id)}">${badge(check.result)} <code>${h(check.id)}</code> — ${h(check.title)}</h3>`);
    parts.push(`<p class="muted">level ${check.level} · requirements ${check.requirements.map((r) => `<a href="#req-${h(r)}"><code>${h(r)}</code></a>`).join(', ')} · needs ${check.needs.join(', ') || 'nothing'} · tags ${h(check.tags.join(', '))} · ${check.durationMs} ms · ${check.cases} cases · ${check.requests} requests</p>`);
    if (check.reason) parts.push(`<p>${h(check.reason)}</p>`);
    for (const failure of check.failures) {
      parts.push(`<p>${badge(failure.severity)} <code>${h(failure.requirement)}</code> <strong>${h(failure.title)}</strong></p><pre>${h(failure.message)}</pre>`);
      if (failure.reproduction) parts.push(`<p>Reproduce:</p><pre>${h(failure.reproduction)}</pre>`);
      if (failure.delivery) parts.push(renderDeliveryHtml(failure.delivery));
      if (failure.fastCheck) parts.push(`<p>Replay (seed ${failure.fastCheck.seed}, path <code>${h(failure.fastCheck.path)}</code>):</p><pre>${h(failure.fastCheck.replay)}</pre>`);
    }
  }
  parts.push('</body></html>\n');
  return parts.join('\n');
}

/** What the report was produced from (tool, contract and catalogue digests, seed, target, times): one table. */
export function renderMetadataHtml(metadata: RunMetadata): string {
  const rows = metadataLines(metadata).map(([label, value]) => `<tr><th>${escapeHtml(label)}</th><td><code>${escapeHtml(value)}</code></td></tr>`);
  return `<h2 id="run-metadata">Run</h2><table class="run-metadata">${rows.join('')}</table>`;
}

/** A webhook finding's delivery, folded: the request as received, both signatures and the commands. */
export function renderDeliveryHtml(delivery: DeliveryEvidence): string {
  return `<details class="delivery"><summary>Delivery <code>${escapeHtml(delivery.id)}</code> as received</summary><pre>${escapeHtml(deliveryText(delivery))}</pre></details>`;
}
