// Runs the built `stablepay` bin (vitest's globalSetup built dist/) and collects its output.
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const bin = fileURLToPath(new URL('../../bin/stablepay.js', import.meta.url));

export interface BinResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

export function runBin(args: string[], env: Record<string, string> = {}): Promise<BinResult> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [bin, ...args], {
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, STABLEPAY_API_KEY: '', STABLEPAY_BASE_URL: '', ...env },
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    child.on('exit', (code) => resolve({ code, stdout, stderr }));
  });
}
