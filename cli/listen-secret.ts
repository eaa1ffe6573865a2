// The stable secret of a listener identity (Stripe's CLI keeps one per device): made once, kept in the user's
// configuration directory (0600, beside nothing else of theirs), and handed to the simulator by every `listen` of that
// identity, so a receiver configured with it keeps verifying across runs, resets and simulator restarts.
import { randomBytes } from 'node:crypto';
import { linkSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { UsageError } from './exit-codes.ts';

export const CONFIG_DIR_ENV = 'STABLEPAY_CONFIG_DIR';
export const DEFAULT_LISTENER_NAME = 'default';
const NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;
const SECRET = /^whsec_[0-9a-f]{64}$/;

/** $STABLEPAY_CONFIG_DIR, else $XDG_CONFIG_HOME/stablepay, else ~/.config/stablepay. */
export function configDir(env: NodeJS.ProcessEnv = process.env): string {
  if (env[CONFIG_DIR_ENV]) return env[CONFIG_DIR_ENV];
  return join(env.XDG_CONFIG_HOME || join(homedir(), '.config'), 'stablepay');
}

export function checkListenerName(name: string): string {
  if (!NAME.test(name)) throw new UsageError(`--name must be 1-64 letters, digits, dots, dashes or underscores, got "${name}"`);
  return name;
}

export interface ListenerSecret {
  secret: string;
  /** Where it is kept. */
  file: string;
  /** Made by this call (the first run of this identity). */
  created: boolean;
}

/**
 * The identity's secret, made on first use. Two listens starting at once agree: the secret is written whole to a file
 * of this process, then linked into place, which fails if the other was first (no one ever reads half a file).
 */
export function listenerSecret(name: string, env: NodeJS.ProcessEnv = process.env): ListenerSecret {
  const dir = join(configDir(env), 'listeners');
  const file = join(dir, `${checkListenerName(name)}.secret`);
  const existing = readSecret(file);
  if (existing) return { secret: existing, file, created: false };
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const secret = `whsec_${randomBytes(32).toString('hex')}`;
  const own = `${file}.${process.pid}.tmp`;
  writeFileSync(own, `${secret}\n`, { mode: 0o600 });
  try {
    linkSync(own, file);
    return { secret, file, created: true };
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    return { secret: readSecret(file) ?? invalid(file), file, created: false };
  } finally {
    rmSync(own, { force: true });
  }
}

function invalid(file: string): never {
  throw new UsageError(`${file} does not hold a listener secret (whsec_ and 64 hex digits); delete it to make a new one`);
}

function readSecret(file: string): string | undefined {
  let text: string;
  try {
    text = readFileSync(file, 'utf8').trim();
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
  return SECRET.test(text) ? text : invalid(file);
}
