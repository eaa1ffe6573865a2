// The fault proxy as a black-box target (`--target-command`): a correct simulator started as a real implementation would
// be (`stablepay start --no-control --no-demo-payment`, on the chains, key and libfaketime clock the suite hands every
// target), with the proxy carrying one fault or control in front of it on the port the suite chose. The proxy drops the
// simulator's own X-Simulator-* headers, so the suite sees only what the spec documents; paymentUrl points at the proxy
// (STABLEPAY_PUBLIC_URL), so the customer's page traffic passes through it too. No control API anywhere.
//
//   node --import tsx conformance/mutation/proxy/proxy-target.ts <fault-or-control>
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { freePort } from '../../black-box/ports.ts';
import { PROXY_FAULTS } from './all-faults.ts';
import { CONTROLS } from './controls.ts';
import { FaultProxy } from './fault-proxy.ts';

const name = process.argv[2] ?? '';
const rewrite = PROXY_FAULTS.find((f) => f.name === name) ?? CONTROLS.find((c) => c.name === name);
if (!rewrite) {
  process.stderr.write(`proxy-target: no proxy fault or control named "${name}"\n`);
  process.exit(2);
}
const port = Number(process.env.PORT);
if (!Number.isInteger(port) || port <= 0) {
  process.stderr.write('proxy-target: PORT is not set (the suite sets it for a target it starts)\n');
  process.exit(2);
}

const bin = fileURLToPath(new URL('../../../bin/stablepay.js', import.meta.url));
const inner = await freePort();
const service = spawn(process.execPath, [bin, 'start', '--port', String(inner), '--no-control', '--no-demo-payment'], {
  env: { ...process.env, PORT: String(inner), STABLEPAY_PORT: String(inner) },
  stdio: ['ignore', 'inherit', 'inherit'],
});
let proxy: FaultProxy | undefined;
const stop = async (code: number): Promise<never> => {
  await proxy?.close().catch(() => undefined);
  service.kill('SIGTERM');
  process.exit(code);
};
service.once('exit', (code) => {
  process.stderr.write(`proxy-target: the simulator behind the proxy exited (${code})\n`);
  void stop(2);
});
process.on('SIGTERM', () => void stop(0));
process.on('SIGINT', () => void stop(0));

const upstream = `http://127.0.0.1:${inner}`;
for (let i = 0; ; i++) {
  const answered = await fetch(`${upstream}/v1/payments`).then(
    () => true,
    () => false,
  );
  if (answered) break;
  if (i > 600) {
    process.stderr.write('proxy-target: the simulator behind the proxy never answered\n');
    await stop(2);
  }
  await new Promise((resolve) => setTimeout(resolve, 100));
}
proxy = new FaultProxy(upstream, rewrite, { port, documentedHeadersOnly: true });
await proxy.start();
process.stdout.write(`fault proxy (${name}) listening on ${proxy.url}, simulator behind it on ${upstream}\n`);
