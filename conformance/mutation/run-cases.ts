// Runs named outside-in cases (proxy faults or controls) white-box, one after another, and prints what caught each:
// a quick look at one case without the whole self-test.
//
//   npx tsx conformance/mutation/run-cases.ts <fault-or-control> ...
import { CONTROLS } from './proxy/controls.ts';
import { PROXY_FAULTS } from './proxy/all-faults.ts';
import { runProxyCase, type ProxyCase } from './run-proxy-case.ts';

const names = process.argv.slice(2);
if (names.length === 0) {
  process.stderr.write('name at least one proxy fault or control\n');
  process.exit(2);
}
let bad = 0;
for (const name of names) {
  const fault = PROXY_FAULTS.find((f) => f.name === name);
  const control = CONTROLS.find((c) => c.name === name);
  if (!fault && !control) {
    process.stderr.write(`${name}: no proxy fault or control of that name\n`);
    process.exit(2);
  }
  const proxyCase: ProxyCase = fault ? { kind: 'fault', fault } : { kind: 'control', control: control! };
  const run = await runProxyCase(proxyCase);
  const ok = fault ? run.caughtBy.length > 0 : run.caughtBy.length + run.warnedBy.length + run.notExercised.length === 0;
  if (!ok) bad += 1;
  const caught = run.caughtBy.map((c) => `${c.id} (${c.requirements.join(', ')})`).join('; ') || 'nothing failed';
  process.stdout.write(
    `${name}: ${fault ? (ok ? 'caught' : 'NOT caught') : ok ? 'passed' : 'FALSE POSITIVE'}; failed: ${caught}; warned: ${run.warnedBy.join(', ') || '-'}; not exercised: ${run.notExercised.join(', ') || '-'} (${(run.durationMs / 1000).toFixed(1)} s)\n`,
  );
}
process.exit(bad === 0 ? 0 : 1);
