// The target's clock, moved from outside with libfaketime: the target runs with LD_PRELOAD=libfaketimeMT,
// FAKETIME_TIMESTAMP_FILE pointing at a file only the suite writes, and FAKETIME_NO_CACHE=1 so every clock read sees
// the file as it is now. The file holds a relative offset ("+<seconds>"), so the target's clock keeps running and a
// jump fires its pending timers. The same offset moves every chain's block time, so on-chain time agrees.
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { TargetError } from './target-errors.ts';
import { TARGET_DEFAULTS } from '../black-box-options.ts';

export class FaketimeMissingError extends TargetError {
  constructor(tried: readonly string[]) {
    super(
      `libfaketime is not installed (looked for ${tried.join(', ')}): install the Debian package "faketime", pass --faketime <path to libfaketimeMT.so.1>, or run with --no-faketime`,
    );
    this.name = 'FaketimeMissingError';
  }
}

/** The library to preload: the given path (must exist) or the first of Debian's locations that exists. */
export function findLibfaketime(given?: string): string {
  const candidates = given ? [given] : TARGET_DEFAULTS.faketimeCandidates;
  const found = candidates.find((path) => existsSync(path));
  if (!found) throw new FaketimeMissingError(candidates);
  return found;
}

/** Whether libfaketime is installed where the suite looks for it (tests that move a target's clock need it). */
export function hasLibfaketime(): boolean {
  try {
    findLibfaketime();
    return true;
  } catch {
    return false;
  }
}

export type MoveChainTime = (unixMs: number) => Promise<void>;

export class FaketimeClock {
  readonly dir: string;
  readonly timestampFile: string;
  private offsetSeconds = 0;

  constructor(
    readonly library: string,
    private readonly moveChains: MoveChainTime = async () => undefined,
  ) {
    this.dir = mkdtempSync(join(tmpdir(), 'stablepay-faketime-'));
    this.timestampFile = join(this.dir, 'faketime.rc');
    this.write();
  }

  get offsetMs(): number {
    return this.offsetSeconds * 1000;
  }

  /** The target's time now, as far as the suite can tell. */
  now(): number {
    return Date.now() + this.offsetMs;
  }

  /** Environment for a process started on this clock (paths as the process sees them). */
  environment(library = this.library, timestampFile = this.timestampFile): Record<string, string> {
    return { LD_PRELOAD: library, FAKETIME_TIMESTAMP_FILE: timestampFile, FAKETIME_NO_CACHE: '1' };
  }

  /** Move the target's clock and every chain's block time forward by `ms` (whole seconds, rounded up). */
  async advance(ms: number): Promise<void> {
    if (!Number.isFinite(ms) || ms < 0) throw new RangeError(`advance expects ms >= 0, got ${ms}`);
    this.offsetSeconds += Math.ceil(ms / 1000);
    await this.moveChains(this.now());
    this.write();
  }

  dispose(): void {
    rmSync(this.dir, { recursive: true, force: true });
  }

  private write(): void {
    // Written whole through a rename-free single write: the file is tiny and libfaketime re-reads it on every call.
    writeFileSync(this.timestampFile, `+${this.offsetSeconds}\n`);
  }
}
