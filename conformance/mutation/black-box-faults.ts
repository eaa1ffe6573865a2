// Kill rate without a control API: every named fault of simulator/faults/ is started as a black-box target
// (`stablepay start --no-control --inject-fault <name>`, its own chains, libfaketime clock, the browser customer) and
// the suite runs the checks citing what the fault breaks. A fault is caught when one of them fails (documented) or
// fails under --strict (assumed faults). Prints a Markdown table; `--write` also stores it in BLACK-BOX-RESULTS.md.
//
//   npx tsx conformance/mutation/black-box-faults.ts [--write] [fault ...]
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { FAULT_DEFINITIONS, type FaultDefinition } from '@stablepay/simulator/faults';
import { ALL_CHECKS, runConformance } from '../index.ts';
import { targetChecks } from './target-checks.ts';

const bin = fileURLToPath(new URL('../../bin/stablepay.js', import.meta.url));
const SECOND_KEY = 'pk_secondmerchant0000000000000000000000000000000000';

interface Row {
  fault: FaultDefinition;
  caughtBy: string[];
  notExercised: string[];
  ran: string[];
  seconds: number;
}

async function runFault(fault: FaultDefinition): Promise<Row> {
  const { only } = targetChecks(fault, ALL_CHECKS, true);
  const started = Date.now();
  const outcome = await runConformance({
    targetCommand: `exec ${JSON.stringify(process.execPath)} ${JSON.stringify(bin)} start --no-control --no-demo-payment --inject-fault ${fault.name}`,
    secondApiKey: SECOND_KEY,
    only,
    strict: fault.level === 'assumed',
    formats: ['json'],
    progress: false,
    write: () => undefined,
    reportDir: mkdtempSync(join(tmpdir(), `stablepay-bb-fault-${fault.name}-`)),
  });
  const ran = outcome.result.checks.filter((c) => c.result !== 'skipped');
  return {
    fault,
    caughtBy: ran.filter((c) => c.result === 'fail').map((c) => c.id),
    notExercised: ran.filter((c) => c.result === 'not-exercised').map((c) => c.id),
    ran: ran.map((c) => c.id),
    seconds: (Date.now() - started) / 1000,
  };
}

const args = process.argv.slice(2);
const write = args.includes('--write');
const wanted = args.filter((a) => !a.startsWith('--'));
const faults = FAULT_DEFINITIONS.filter((f) => wanted.length === 0 || wanted.includes(f.name));
const rows: Row[] = [];
for (const fault of faults) {
  const row = await runFault(fault);
  rows.push(row);
  process.stderr.write(
    `${fault.name}: ${row.caughtBy.length ? `caught by ${row.caughtBy.join(', ')}` : 'NOT caught'} (${row.seconds.toFixed(1)} s)\n`,
  );
}
const caught = rows.filter((r) => r.caughtBy.length > 0).length;
const table = [
  `Black-box kill rate (no control API; the suite's chains, libfaketime clock and browser customer): **${caught} / ${rows.length}**`,
  '',
  '| fault | level | caught by | not exercised |',
  '|---|---|---|---|',
  ...rows.map(
    (r) =>
      `| \`${r.fault.name}\` | ${r.fault.level}${r.fault.level === 'assumed' ? ' (--strict)' : ''} | ${r.caughtBy.map((c) => `\`${c}\``).join(', ') || '**not caught**'} | ${r.notExercised.map((c) => `\`${c}\``).join(', ') || '—'} |`,
  ),
  '',
].join('\n');
process.stdout.write(`${table}\n`);
/** Faults no outside observer can see, and why (kept in the written file). */
const UNOBSERVABLE = `Not observable from outside:
- \`expired-then-successful\` lets a late on-chain confirmation turn an EXPIRED payment SUCCESSFUL. A customer cannot
  produce that confirmation: a payment whose transaction the implementation accepted is PROCESSING, which does not
  expire, and an EXPIRED payment accepts no transaction. Only the control API's confirm reaches that row.
- \`key-expiry-wall-clock\` compares key expiry with the wall clock instead of the service clock. A black-box target has
  one clock, the system clock that libfaketime moves, so both are the same and the bug cannot show.
`;
const HEADER = `# Named faults against a black-box target

Each fault of \`simulator/faults/\` started as \`stablepay start --no-control --no-demo-payment --inject-fault <name>\` by
the suite (\`--target-command\`, its own chains, libfaketime clock, browser customer), over the checks citing what the
fault breaks (\`--strict\` for assumed faults). Regenerate: \`npx tsx conformance/mutation/black-box-faults.ts --write\`
(about 6 minutes here; name faults to run only those).
`;
if (write) writeFileSync(fileURLToPath(new URL('./BLACK-BOX-RESULTS.md', import.meta.url)), `${HEADER}\n${table}\n${UNOBSERVABLE}`);
