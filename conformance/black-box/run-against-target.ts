// runConformance() with --target-command/--target-image: check every option first, start the black-box world, run
// the suite against it, and tear it all down whatever happens.
import { randomBytes } from 'node:crypto';
import { API_KEY_ENV, DEFAULTS } from '../defaults.ts';
import { loadPageContract } from '../customer/page-contract.ts';
import { resolveOptions, type ConformanceOptions } from '../options.ts';
import { jsonGoesToStdout } from '../reports/index.ts';
import { HOST_FROM_CONTAINER } from './image-target.ts';
import { freePort } from './ports.ts';
import type { BlackBox } from './start-black-box.ts';
import { instanceCount, startInstances } from './spare-instances.ts';

/** The target the run judges, and its spare instances (lanes) with what to say about them. */
export interface StartedTargets {
  spares: BlackBox[];
  notes: string[];
}

export async function runAgainstTarget<T>(
  input: ConformanceOptions,
  run: (options: ConformanceOptions, blackBox: BlackBox, started: StartedTargets) => Promise<T>,
): Promise<T> {
  // A key for the target to accept when the user gave none (an empty STABLEPAY_API_KEY, an unset CI secret, is none): it gets it as STABLEPAY_API_KEY.
  const apiKey = input.apiKey ?? (process.env[API_KEY_ENV] || `pk_${randomBytes(24).toString('hex')}`);
  // Bad flags must fail before a chain or a target starts.
  const probe = resolveOptions({ ...input, apiKey, baseUrl: input.baseUrl ?? 'http://127.0.0.1:1' });
  if (input.customer !== false) loadPageContract(input.pageContract);
  const count = instanceCount({ ...input, ...(input.baseUrl ? { baseUrl: probe.baseUrl } : {}) }, probe.workers);
  const instances = await startInstances(
    {
      ...input,
      reportDir: input.reportDir ?? DEFAULTS.reportDir,
      apiKey,
      ...(input.baseUrl ? { baseUrl: probe.baseUrl } : {}),
      // When stdout carries machine output (ndjson, or the JSON report), the target's log goes to stderr.
      log: (line) =>
        probe.formats.includes('ndjson') || jsonGoesToStdout(probe.formats, probe.reportDirExplicit)
          ? process.stderr.write(`${line}\n`)
          : probe.write(`${line}\n`),
    },
    count,
  );
  const blackBox = instances.main;
  try {
    // A container reaches the suite's webhook receiver through the host gateway, as it reaches the chains.
    const receiver = input.targetImage && input.webhooks !== false && !input.webhookListen ? await freePort('0.0.0.0') : undefined;
    const webhookAddress = receiver
      ? { webhookListen: `0.0.0.0:${receiver}`, webhookPublicUrl: input.webhookPublicUrl ?? `http://${HOST_FROM_CONTAINER}:${receiver}` }
      : {};
    return await run({ ...input, ...webhookAddress, apiKey, baseUrl: blackBox.baseUrl }, blackBox, instances);
  } finally {
    await instances.teardown();
  }
}
