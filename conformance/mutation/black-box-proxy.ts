// The outside-in proxy faults and controls run black-box: each case is started by the suite as a target command
// (proxy/proxy-target.ts: a correct simulator with no control API behind the fault proxy, which drops every
// X-Simulator-* header), on the suite's chains and libfaketime clock, paid through its page by the browser customer.
// A fault runs the checks citing what it breaks (the whole run when only other checks' payments show it; assumed
// faults under --strict) and is caught when one fails. A control runs every check that judges its kind of traffic
// under --strict and passes when none fails or warns. Prints a Markdown table; `--write` stores it in
// BLACK-BOX-PROXY-RESULTS.md.
//
//   npx tsx conformance/mutation/black-box-proxy.ts [--write] [--pool N] [fault-or-control ...]
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ALL_CHECKS, runConformance } from '../index.ts';
import { CONTROLS } from './proxy/controls.ts';
import { controlChecks, nameOf, type ProxyCase } from './run-proxy-case.ts';
import { BLACK_BOX_PROXY_FAULTS } from './proxy/all-faults.ts';
import { targetChecks } from './target-checks.ts';
import { runPooled } from './worker-pool.ts';

const target = fileURLToPath(new URL('./proxy/proxy-target.ts', import.meta.url));
const SECOND_KEY = 'pk_secondmerchant0000000000000000000000000000000000';

interface Row {
  case: ProxyCase;
  failedBy: string[];
  warnedBy: string[];
  notExercised: string[];
  seconds: number;
}

async function runCase(proxyCase: ProxyCase): Promise<Row> {
  const name = nameOf(proxyCase);
  const only = proxyCase.kind === 'fault' ? targetChecks(proxyCase.fault, ALL_CHECKS, true).only : controlChecks(proxyCase.control);
  const started = Date.now();
  const outcome = await runConformance({
    targetCommand: `exec ${JSON.stringify(process.execPath)} --import tsx ${JSON.stringify(target)} ${name}`,
    secondApiKey: SECOND_KEY,
    only,
    strict: proxyCase.kind === 'control' || proxyCase.fault.level === 'assumed',
    formats: ['json'],
    progress: false,
    write: () => undefined,
    reportDir: mkdtempSync(join(tmpdir(), `stablepay-bb-proxy-${name}-`)),
  });
  const ran = outcome.result.checks.filter((c) => c.result !== 'skipped');
  const ids = (result: string) => ran.filter((c) => c.result === result).map((c) => c.id);
  return {
    case: proxyCase,
    failedBy: ids('fail'),
    warnedBy: ids('warn'),
    notExercised: ids('not-exercised'),
    seconds: (Date.now() - started) / 1000,
  };
}

const args = process.argv.slice(2);
const write = args.includes('--write');
const poolAt = args.indexOf('--pool');
const pool = poolAt >= 0 ? Number(args[poolAt + 1]) : 2;
const wanted = args.filter((a, i) => !a.startsWith('--') && !(poolAt >= 0 && i === poolAt + 1));
const allCases: ProxyCase[] = [
  ...BLACK_BOX_PROXY_FAULTS.map((fault) => ({ kind: 'fault', fault }) as ProxyCase),
  ...CONTROLS.map((control) => ({ kind: 'control', control }) as ProxyCase),
];
const unknown = wanted.filter((w) => !allCases.some((c) => nameOf(c) === w));
if (unknown.length) {
  process.stderr.write(`no proxy fault or control named ${unknown.join(', ')}\n`);
  process.exit(2);
}
const cases = allCases;
const toRun = allCases.filter((c) => wanted.length === 0 || wanted.includes(nameOf(c)));
const started = Date.now();
const rows = await runPooled(toRun, pool, async (c) => {
  const row = await runCase(c);
  const verdict = c.kind === 'fault' ? (row.failedBy.length ? 'caught' : 'NOT caught') : passed(row) ? 'passed' : 'FALSE POSITIVE';
  process.stderr.write(`${nameOf(c)}: ${verdict} (${row.seconds.toFixed(0)} s, load ${loadavg()[0]!.toFixed(1)})\n`);
  return row;
});

function passed(row: Row): boolean {
  return row.failedBy.length === 0 && row.warnedBy.length === 0;
}

const list = (ids: string[]) => ids.map((id) => `\`${id}\``).join(', ');
const line = (r: Row): string => {
  const level =
    r.case.kind === 'fault' ? `${r.case.fault.level}${r.case.fault.level === 'assumed' ? ' (--strict)' : ''}` : 'control (--strict)';
  const failed = list(r.failedBy) || (r.case.kind === 'fault' ? NOT_CAUGHT : '—');
  return `| \`${nameOf(r.case)}\` | ${r.case.kind === 'fault' ? r.case.fault.class : 'control'} | ${level} | ${failed} | ${list(r.warnedBy) || '—'} | ${list(r.notExercised) || '—'} | ${r.seconds.toFixed(0)} s |`;
};
const NOT_CAUGHT = '**not caught**';
const resultsFile = fileURLToPath(new URL('./BLACK-BOX-PROXY-RESULTS.md', import.meta.url));
// Named cases rerun replace their own rows of the stored table; the figures are counted from the rows.
const stored = wanted.length > 0 && existsSync(resultsFile) ? readFileSync(resultsFile, 'utf8').split('\n') : [];
const rowOf = (text: string): string | undefined => /^\| `([^`]+)` \|/.exec(text)?.[1];
const lines = cases.map((c) => {
  const fresh = rows.find((r) => r.case === c);
  return fresh ? line(fresh) : (stored.find((l) => rowOf(l) === nameOf(c)) ?? `| \`${nameOf(c)}\` | not run | | | | | |`);
});
const cells = (text: string): string[] => text.split(' | ');
const faultLines = lines.filter((l) => !cells(l)[1]!.startsWith('control'));
const controlLines = lines.filter((l) => cells(l)[1]!.startsWith('control'));
const controlPassed = (l: string): boolean => cells(l)[3] === '—' && cells(l)[4] === '—';
const table = [
  `- Kill rate, proxy faults black-box: **${faultLines.filter((l) => cells(l)[3] !== NOT_CAUGHT && !l.includes('| not run |')).length} / ${faultLines.length}**`,
  `- Controls black-box (--strict): **${controlLines.filter(controlPassed).length} / ${controlLines.length} passed, ${controlLines.filter((l) => !controlPassed(l)).length} false positives**`,
  `- Last run: ${((Date.now() - started) / 1000).toFixed(0)} s for ${rows.length} runs (${wanted.length ? wanted.join(', ') : 'every case'}), pool of ${pool}, load average ${loadavg()[0]!.toFixed(1)} at the end (shared 2-core machine)`,
  '',
  '| case | kind | level | failed (caught by) | warned | not exercised | run |',
  '|---|---|---|---|---|---|---|',
  ...lines,
  '',
].join('\n');
process.stdout.write(`${table}\n`);
const HEADER = `# Outside-in proxy faults against a black-box target

Each fault and control of \`mutation/proxy/\` started by the suite as a target command
(\`proxy/proxy-target.ts\`: \`stablepay start --no-control --no-demo-payment\` behind the fault proxy, which drops every
\`X-Simulator-*\` header, so the target sends only the documented ones), on the suite's chains and libfaketime clock,
paid through its page by the browser customer. Faults run the checks citing what they break (the whole run when only
other checks' payments show them; \`--strict\` for assumed faults) and are caught when one fails; controls run every
check judging their kind of traffic under \`--strict\` and pass when none fails or warns. The page faults
(\`proxy/page-faults.ts\`) run only here: the white-box self-test has no browser. Regenerate:
\`npx tsx conformance/mutation/black-box-proxy.ts --write [--pool N] [case ...]\` (named cases replace their own rows).
`;
if (write) writeFileSync(resultsFile, `${HEADER}\n${table}`);
const missed = rows.filter((r) => (r.case.kind === 'fault' ? r.failedBy.length === 0 : !passed(r))).length;
process.exit(missed === 0 ? 0 : 1);
