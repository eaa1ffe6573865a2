// Self-contained HTML report for auditors (no external asset; inline CSS and a small inline script).
// Order: the summary (verdict, counts, coverage, target, provenance), the failures grouped by check with their
// requirement and reproduction, the warnings, what was not exercised or skipped and why, then the requirement
// traceability matrix (filterable by status, level and section, sortable by any column) and the list of checks.
// Readable at 1280 px without sideways scrolling: fixed table layout, and long strings (curl lines, replay
// commands, bodies) wrap anywhere. Without JavaScript every section still reads; only filter and sort need it.
import type { CheckResult, ReplayRecipe, ResultKind, RunResult } from '../types.ts';
import { percent } from '../traceability.ts';
import { metadataLines, type RunMetadata } from '../run-metadata.ts';
import { deliveryText } from './delivery-text.ts';
import type { DeliveryEvidence } from '../webhooks/evidence.ts';
import { groupFindings } from './console.ts';
import { limitsText, verdictOf } from './verdict.ts';
import { premiseRows } from './premises.ts';
import { curlNote } from '../reproduction/secret-needs.ts';

export function escapeHtml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#39;');
}

const STYLE = `
*{box-sizing:border-box}
body{font:14px/1.45 system-ui,-apple-system,Segoe UI,sans-serif;margin:1rem auto;max-width:1200px;padding:0 1rem;color:#1d2330;overflow-wrap:anywhere}
h1{margin:.2rem 0;font-size:1.5rem}h2{margin-top:1.6rem;border-bottom:1px solid #dde;padding-bottom:.3rem;font-size:1.2rem}h3{font-size:1rem;margin:.2rem 0}
table{border-collapse:collapse;width:100%;margin:.4rem 0;table-layout:fixed}th,td{border:1px solid #dde;padding:.25rem .45rem;text-align:left;vertical-align:top;overflow-wrap:anywhere;word-break:break-word}
th{background:#f3f4f8}code,pre{font-family:ui-monospace,Menlo,Consolas,monospace;font-size:12.5px;overflow-wrap:anywhere;word-break:break-all}
pre{background:#f6f7fa;padding:.5rem;margin:.3rem 0;white-space:pre-wrap;max-height:24em;overflow-y:auto}
.r{font-weight:600;padding:.05rem .4rem;border-radius:3px;white-space:nowrap}
.pass{background:#dcf5e3;color:#135e2c}.fail{background:#fde0e0;color:#8a1212}.warn{background:#fff1cc;color:#7a5200}
.not-exercised{background:#e6e9f2;color:#3a4360}.error{background:#3a0d0d;color:#fff}.skipped{background:#f1f1f1;color:#666}.not-covered{background:#fff;color:#999;border:1px dashed #bbb}
.muted{color:#667}.verdict{display:inline-block;font-size:1rem;padding:.15rem .6rem;border-radius:4px;vertical-align:middle;margin-left:.5rem}
.summary{display:grid;grid-template-columns:minmax(0,1fr) minmax(0,1fr);gap:.2rem 1.5rem;margin:.4rem 0}
.summary dl{display:grid;grid-template-columns:9.5rem minmax(0,1fr);gap:.1rem .6rem;margin:0}.summary dt{color:#556;font-weight:600}.summary dd{margin:0}
.counts{margin:.3rem 0}.counts span{margin-right:.9rem;white-space:nowrap}
nav.jump a{margin-right:1rem}
.check{border:1px solid #e3d0d0;border-left:4px solid #c33;border-radius:4px;padding:.45rem .7rem;margin:.6rem 0}
.check.warn-check{border-color:#eadfbd;border-left-color:#d9a400}
.finding{margin:.4rem 0 .6rem}.finding>p{margin:.2rem 0}
.controls{display:flex;flex-wrap:wrap;gap:.4rem 1rem;align-items:center;margin:.4rem 0}
.controls label{white-space:nowrap}.controls input{width:16rem;max-width:100%}
th button{all:unset;cursor:pointer;font-weight:600}th button::after{content:" ↕";color:#99a}
th[aria-sort=ascending] button::after{content:" ↑";color:#333}th[aria-sort=descending] button::after{content:" ↓";color:#333}
tr[hidden]{display:none}`;

/** Worst first: the order the matrix sorts its result column in. */
const RESULT_ORDER: (ResultKind | 'not-covered')[] = ['fail', 'error', 'warn', 'not-exercised', 'skipped', 'not-covered', 'pass'];

const SCRIPT = `
(function(){
  var table=document.getElementById('matrix-table'); if(!table) return;
  var body=table.tBodies[0], rows=Array.prototype.slice.call(body.rows);
  var status=document.getElementById('f-status'), level=document.getElementById('f-level'), section=document.getElementById('f-section'), text=document.getElementById('f-text'), shown=document.getElementById('f-shown');
  function apply(){
    var s=status.value, l=level.value, c=section.value, q=text.value.trim().toLowerCase(), n=0;
    rows.forEach(function(r){
      var ok=(!s||r.dataset.status===s)&&(!l||r.dataset.level===l)&&(!c||r.dataset.section===c)&&(!q||r.textContent.toLowerCase().indexOf(q)>=0);
      r.hidden=!ok; if(ok) n++;
    });
    shown.textContent=n+' of '+rows.length+' requirements shown';
  }
  [status,level,section].forEach(function(e){e.addEventListener('change',apply)}); text.addEventListener('input',apply);
  Array.prototype.forEach.call(table.tHead.rows[0].cells,function(th){
    var button=th.querySelector('button'); if(!button) return;
    button.addEventListener('click',function(){
      var key=th.dataset.key, dir=th.getAttribute('aria-sort')==='ascending'?-1:1;
      Array.prototype.forEach.call(table.tHead.rows[0].cells,function(o){o.removeAttribute('aria-sort')});
      th.setAttribute('aria-sort',dir===1?'ascending':'descending');
      rows.sort(function(a,b){var x=a.dataset[key], y=b.dataset[key]; var d=key==='rank'?Number(x)-Number(y):x.localeCompare(y); return d*dir||a.dataset.id.localeCompare(b.dataset.id)});
      rows.forEach(function(r){body.appendChild(r)});
    });
  });
  apply();
})();`;

function badge(kind: ResultKind | 'not-covered'): string {
  return `<span class="r ${kind}">${kind}</span>`;
}

/** The check's replay line (short: the report holds the seed and paths it reads) and the secrets it needs. */
function replayHtml(recipe: ReplayRecipe | undefined, h: (text: string) => string): string {
  if (!recipe) return '';
  if (!recipe.command) return `<p class="replay">No replay: ${h(recipe.why ?? 'none recorded')}</p>`;
  const needs = recipe.needs.map((need) => `<li><code>${h(need.variable)}</code>: ${h(need.where)}</li>`).join('');
  return `<div class="replay"><p>Replay this check against the implementation with your own credentials:</p><pre class="repro">${h(recipe.command)}</pre>${needs ? `<ul class="muted">${needs}</ul>` : ''}${recipe.note ? `<p class="muted">${h(recipe.note)}</p>` : ''}</div>`;
}

function checkSection(checks: CheckResult[], kind: 'fail' | 'warn', h: (text: string) => string): string {
  const parts: string[] = [];
  for (const check of checks) {
    parts.push(`<article class="check${kind === 'warn' ? ' warn-check' : ''}" id="${kind}-${h(check.id)}">`);
    parts.push(`<h3>${badge(check.result)} <a href="#check-${h(check.id)}"><code>${h(check.id)}</code></a> — ${h(check.title)}</h3>`);
    parts.push(
      `<p class="muted">level ${check.level} · requirements ${check.requirements.map((r) => `<a href="#req-${h(r)}"><code>${h(r)}</code></a>`).join(', ')} · seed ${check.seed ?? '—'} · ${check.durationMs} ms · ${check.requests} requests</p>`,
    );
    // Failures of the check before its warnings; identical findings folded with a count.
    for (const group of groupFindings(check.failures)) {
      for (const { failure, count } of group.findings) {
        parts.push(`<div class="finding">`);
        parts.push(
          `<p>${badge(failure.severity)} <a href="#req-${h(failure.requirement)}"><code>${h(failure.requirement)}</code></a> <strong>${h(failure.title)}</strong>${count > 1 ? ` <span class="muted">×${count} identical findings</span>` : ''}</p>`,
        );
        parts.push(`<pre>${h(failure.message)}</pre>`);
        if (failure.reproduction) {
          parts.push(`<p>Reproduce:</p><pre class="repro">${h(failure.reproduction)}</pre>`);
          const note = curlNote(failure.reproduction);
          if (note) parts.push(`<p class="muted">${h(note)}</p>`);
        }
        if (failure.delivery) parts.push(renderDeliveryHtml(failure.delivery));
        parts.push('</div>');
      }
    }
    parts.push(replayHtml(check.replay, h));
    if (check.reason) parts.push(`<p class="muted">${h(check.reason)}</p>`);
    parts.push('</article>');
  }
  return parts.join('\n');
}

export function renderHtml(result: RunResult): string {
  const { summary } = result;
  const { counts } = summary;
  const h = escapeHtml;
  const failed = result.checks.filter((c) => c.result === 'fail');
  const warned = result.checks.filter((c) => c.result === 'warn');
  const unexercised = result.checks.filter((c) => c.result === 'not-exercised' || c.result === 'skipped');
  const verdict = verdictOf(summary, result.gate);
  const errored = result.checks.filter((c) => c.result === 'error');
  const targetStarted = metadataLines(result.metadata).find(([label]) => label === 'Target started by')?.[1];
  const parts: string[] = [];
  parts.push(
    `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><title>Conformance report — ${h(summary.baseUrl)}</title><style>${STYLE}</style></head><body>`,
  );

  // 1. Summary: everything an auditor decides on, in the first screen.
  parts.push(
    `<header id="summary"><h1>Conformance report <span class="verdict ${verdict.kind}" id="verdict">${h(verdict.text)}</span></h1>`,
  );
  parts.push(
    `<p class="counts"><span>${badge('pass')} ${counts.passed}</span><span>${badge('fail')} ${counts.failed}</span><span>${badge('warn')} ${counts.warned}</span><span>${badge('not-exercised')} ${counts.notExercised}</span><span>${badge('skipped')} ${counts.skipped}</span>${counts.errors ? `<span>${badge('error')} ${counts.errors}</span>` : ''}<span class="muted">${result.checks.length} checks, ${summary.cases} cases, ${summary.requests} requests</span></p>`,
  );
  const coverage = result.coverage
    .map((c) => `${c.level}: ${c.exercised}/${c.total} exercised (${percent(c.exercised, c.total)})`)
    .join('<br>');
  parts.push('<div class="summary"><dl>');
  parts.push(`<dt>Target</dt><dd><code>${h(summary.baseUrl)}</code>${targetStarted ? `<br><code>${h(targetStarted)}</code>` : ''}</dd>`);
  parts.push(
    `<dt>Control API</dt><dd>${summary.controlUrl ? `<code>${h(summary.controlUrl)}</code>` : 'not available'} · webhook receiver ${summary.capabilities['webhook-receiver'] ? 'yes' : 'no'}</dd>`,
  );
  parts.push(`<dt>Coverage</dt><dd>${coverage}</dd>`);
  parts.push('</dl><dl>');
  parts.push(`<dt>Contract SHA-256</dt><dd id="contract-sha256"><code>${h(result.metadata.contract.sha256)}</code></dd>`);
  parts.push(`<dt>Catalogue SHA-256</dt><dd><code>${h(result.metadata.catalogue.sha256)}</code></dd>`);
  parts.push(
    `<dt>Tool</dt><dd>${h(summary.tool.name)} ${h(summary.tool.version)} · ${summary.strict ? 'strict' : 'default mode (assumed requirements warn)'}</dd>`,
  );
  parts.push(
    `<dt>Run</dt><dd>${h(summary.startedAt)} · ${(summary.durationMs / 1000).toFixed(1)} s · seed ${summary.seed} · ${summary.runs} runs per property</dd>`,
  );
  parts.push(`<dt>Limits</dt><dd>${h(limitsText(summary.limits))}</dd>`);
  parts.push('</dl></div>');
  if (summary.capabilityNotes.length)
    parts.push(
      `<details><summary>Run notes (${summary.capabilityNotes.length})</summary><p>${summary.capabilityNotes.map(h).join('<br>')}</p></details>`,
    );
  if (summary.interrupted) {
    const { notRun } = summary.interrupted;
    parts.push(
      `<p id="interrupted"><strong>${h(summary.interrupted.message)}.</strong> ${notRun.length} check${notRun.length === 1 ? '' : 's'} not run (listed as skipped below); what ran is reported as found.</p>`,
    );
  }
  parts.push(
    `<nav class="jump">${errored.length ? `<a href="#errors">Errors (${errored.length})</a>` : ''}<a href="#failures">Failures (${failed.length})</a><a href="#warnings">Warnings (${warned.length})</a><a href="#not-exercised">Not exercised / skipped (${unexercised.length})</a><a href="#premises">Premises</a><a href="#matrix">Traceability matrix</a><a href="#checks">All checks</a></nav></header>`,
  );

  // 2. Checks that broke (the run could not judge them), then the failures grouped by check.
  if (errored.length) {
    parts.push(
      `<section id="errors"><h2>Errors (${errored.length} check${errored.length === 1 ? '' : 's'} could not be judged)</h2><p class="muted">The check itself broke; the stack is in the JSON report.</p>`,
    );
    for (const check of errored)
      parts.push(
        `<p>${badge('error')} <a href="#check-${h(check.id)}"><code>${h(check.id)}</code></a>: ${h(check.error?.message ?? '')}</p>`,
      );
    parts.push('</section>');
  }
  // Failures, grouped by check.
  parts.push(`<section id="failures"><h2>Failures (${failed.length} check${failed.length === 1 ? '' : 's'})</h2>`);
  parts.push(failed.length ? checkSection(failed, 'fail', h) : '<p>No check failed.</p>');
  parts.push('</section>');

  // 3. Warnings, then what did not run and why.
  parts.push(`<section id="warnings"><h2>Warnings (${warned.length} check${warned.length === 1 ? '' : 's'})</h2>`);
  parts.push(
    warned.length
      ? `<p class="muted">Failures of assumed requirements (docs/decisions.md); they fail the run with --strict.</p>${checkSection(warned, 'warn', h)}`
      : '<p>No warnings.</p>',
  );
  parts.push('</section>');
  parts.push(`<section id="not-exercised"><h2>Not exercised and skipped (${unexercised.length})</h2>`);
  if (unexercised.length) {
    parts.push(
      '<table><colgroup><col style="width:30%"><col style="width:12%"><col></colgroup><thead><tr><th>Check</th><th>Result</th><th>Reason</th></tr></thead><tbody>',
    );
    for (const check of unexercised)
      parts.push(
        `<tr><td><a href="#check-${h(check.id)}"><code>${h(check.id)}</code></a></td><td>${badge(check.result)}</td><td>${h(check.reason ?? '')}</td></tr>`,
      );
    parts.push('</tbody></table>');
  } else parts.push('<p>Every selected check ran.</p>');
  parts.push('</section>');

  // 4. The premises: what the run took where the spec is silent, and how it knew.
  const premises = premiseRows(result);
  parts.push(
    `<section id="premises"><h2>Premises (${premises.length})</h2><p class="muted">Shapes the spec does not show that checks needed: discovered on the implementation, declared in its profile, or the simulator's choice (unconfirmed: a finding resting on it is at most a warning).</p>`,
  );
  if (premises.length) {
    parts.push(
      '<table><colgroup><col style="width:26%"><col style="width:14%"><col style="width:20%"><col></colgroup><thead><tr><th>Premise</th><th>How established</th><th>Value</th><th>Evidence · profile key</th></tr></thead><tbody>',
    );
    for (const row of premises)
      parts.push(
        `<tr data-status="${row.status}"><td><code>${h(row.id)}</code><br><span class="muted">${h(row.title)}</span></td><td>${h(row.how)}</td><td><code>${h(row.value)}</code></td><td>${h(row.evidence)}<br><code>${h(row.profileKey)}</code></td></tr>`,
      );
    parts.push('</tbody></table>');
  } else parts.push('<p>No premise was needed.</p>');
  parts.push('</section>');

  // 5. Coverage and the traceability matrix.
  parts.push('<section id="matrix"><h2>Requirement traceability matrix</h2>');
  parts.push(
    '<table><thead><tr><th>Level</th><th>Requirements</th><th>Covered by the suite</th><th>Exercised in this run</th></tr></thead><tbody>',
  );
  for (const c of result.coverage) {
    parts.push(
      `<tr><td>${c.level}</td><td>${c.total}</td><td>${c.covered} (${percent(c.covered, c.total)})</td><td>${c.exercised} (${percent(c.exercised, c.total)})</td></tr>`,
    );
  }
  parts.push(
    '</tbody></table><p class="muted">Exercised: at least one citing check judged it (pass, fail or warn). Not-exercised and skipped checks never count, nor does a requirement a check cites but did not reach in this run.</p>',
  );
  const option = (value: string) => `<option value="${h(value)}">${h(value)}</option>`;
  const sections = [...new Set(result.traceability.map((row) => row.requirement.section))].sort();
  parts.push('<div class="controls">');
  parts.push(`<label>Status <select id="f-status"><option value="">all</option>${RESULT_ORDER.map(option).join('')}</select></label>`);
  parts.push(`<label>Level <select id="f-level"><option value="">all</option>${option('documented')}${option('assumed')}</select></label>`);
  parts.push(`<label>Section <select id="f-section"><option value="">all</option>${sections.map(option).join('')}</select></label>`);
  parts.push(
    `<label>Text <input id="f-text" type="search" placeholder="id, statement, check"></label><span id="f-shown" class="muted"></span></div>`,
  );
  parts.push(
    '<table id="matrix-table"><colgroup><col style="width:21%"><col style="width:10%"><col style="width:13%"><col style="width:34%"><col style="width:22%"></colgroup>',
  );
  parts.push(
    '<thead><tr><th data-key="id"><button type="button">Requirement</button></th><th data-key="level"><button type="button">Level</button></th><th data-key="section"><button type="button">Section</button></th><th>Statement</th><th data-key="rank"><button type="button">Result</button> · checks</th></tr></thead><tbody>',
  );
  for (const row of result.traceability) {
    const { requirement } = row;
    const checks = row.checks.length
      ? row.checks.map((c) => `<a href="#check-${h(c.id)}"><code>${h(c.id)}</code></a> ${badge(c.result)}`).join('<br>')
      : '<span class="muted">no check</span>';
    parts.push(
      `<tr id="req-${h(requirement.id)}" data-id="${h(requirement.id)}" data-status="${row.result}" data-rank="${RESULT_ORDER.indexOf(row.result)}" data-level="${requirement.level}" data-section="${h(requirement.section)}">` +
        `<td><code>${h(requirement.id)}</code></td><td>${requirement.level}</td><td>${h(requirement.section)}</td><td>${h(requirement.statement)}</td><td>${badge(row.result)}<br>${checks}</td></tr>`,
    );
  }
  parts.push('</tbody></table></section>');

  parts.push(renderMetadataHtml(result.metadata));

  // 5. Every check, compact.
  parts.push(
    '<section id="checks"><h2>All checks</h2><table><colgroup><col style="width:28%"><col style="width:30%"><col style="width:10%"><col style="width:10%"><col style="width:22%"></colgroup>',
  );
  parts.push('<thead><tr><th>Check</th><th>Title</th><th>Result</th><th>Level</th><th>Time · cases · requests</th></tr></thead><tbody>');
  for (const check of result.checks) {
    parts.push(
      `<tr id="check-${h(check.id)}"><td><code>${h(check.id)}</code></td><td>${h(check.title)}</td><td>${badge(check.result)}</td><td>${check.level}</td><td>${check.durationMs} ms · ${check.cases} · ${check.requests}</td></tr>`,
    );
  }
  parts.push('</tbody></table></section>');
  parts.push(`<script>${SCRIPT}</script></body></html>\n`);
  return parts.join('\n');
}

/** What the report was produced from (tool, contract and catalogue digests, seed, target, times): one table. */
export function renderMetadataHtml(metadata: RunMetadata): string {
  const rows = metadataLines(metadata).map(
    ([label, value]) => `<tr><th>${escapeHtml(label)}</th><td><code>${escapeHtml(value)}</code></td></tr>`,
  );
  return `<h2 id="run-metadata">Run</h2><table class="run-metadata">${rows.join('')}</table>`;
}

/** A webhook finding's delivery, folded: the request as received, both signatures and the commands. */
export function renderDeliveryHtml(delivery: DeliveryEvidence): string {
  return `<details class="delivery"><summary>Delivery <code>${escapeHtml(delivery.id)}</code> as received</summary><pre>${escapeHtml(deliveryText(delivery))}</pre></details>`;
}
