// The customer's Chromium flags (chromium.ts): the packaged build's, less its single-process model and GPU emulation.
import { expect, it } from 'vitest';
import { bundledChromiumArgs } from './bundled-chromium.ts';
import { customerArgs } from './chromium.ts';

it("keeps the packaged build's flags but its process model and GPU emulation, and turns the GPU off", () => {
  const packaged = bundledChromiumArgs();
  // The packaged build still carries what is dropped (else this test would prove nothing).
  expect(packaged).toEqual(expect.arrayContaining(['--single-process', '--no-zygote', '--use-angle=swiftshader', '--in-process-gpu']));
  const args = customerArgs(packaged);
  expect(args.filter((flag) => /single-process|no-zygote|swiftshader|use-gl|in-process-gpu|gpu-blocklist/.test(flag))).toEqual([]);
  expect(args).toContain('--disable-gpu');
  expect(args).toEqual(expect.arrayContaining(['--no-sandbox', "--headless='shell'", '--disable-setuid-sandbox']));
});
