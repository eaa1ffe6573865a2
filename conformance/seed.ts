// Each property gets its own seed derived from the run seed and its name, so `--seed N --only <check>`
// replays exactly what a full run did for that check.
import { createHash } from 'node:crypto';

export function deriveSeed(runSeed: number, key: string): number {
  const digest = createHash('sha256').update(`${runSeed}:${key}`).digest();
  return digest.readUInt32BE(0) & 0x7fffffff;
}
