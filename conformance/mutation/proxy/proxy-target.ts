// The fault proxy as a black-box target (`--target-command`): a correct simulator started as a real implementation would
// be (`stablepay start --no-control --no-demo-payment`, on the chains, key and libfaketime clock the suite hands every
// target), with the proxy carrying one fault or control in front of it on the port the suite chose. The proxy drops the
// simulator's own X-Simulator-* headers, so the suite sees only what the spec documents; paymentUrl points at the proxy
// (STABLEPAY_PUBLIC_URL), so the customer's page traffic passes through it too. No control API anywhere.
//
//   node --import tsx conformance/mutation/proxy/proxy-target.ts <fault-or-control>
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { BLACK_BOX_PROXY_FAULTS } from './all-faults.ts';
import { CONTROLS } from './controls.ts';
import { FaultProxy } from './fault-proxy.ts';

const name = process.argv[2] ?? '';
const rewrite = BLACK_BOX_PROXY_FAULTS.find((f) => f.name === name) ?? CONTROLS.find((c) => c.name === name);
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
// The simulator takes any free port and says which in its banner: a port chosen here and bound later could be taken
// by another target started at the same moment.
const service = spawn(process.execPath, [bin, 'start', '--port', '0', '--no-control', '--no-demo-payment'], {
  env: { ...process.env, PORT: '0', STABLEPAY_PORT: '0' },
  stdio: ['ignore', 'pipe', 'inherit'],
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

const upstream = await new Promise<string>((resolve) => {
  let seen = '';
  service.stdout!.on('data', (chunk: Buffer) => {
    process.stdout.write(chunk);
    seen += chunk.toString('utf8');
    const found = /Base URL\s+(http:\/\/[^\s]+)/.exec(seen);
    if (found) resolve(found[1]!);
  });
});
proxy = new FaultProxy(upstream, rewrite, { port, documentedHeadersOnly: true });
await proxy.start();
process.stdout.write(`fault proxy (${name}) listening on ${proxy.url}, simulator behind it on ${upstream}\n`);
