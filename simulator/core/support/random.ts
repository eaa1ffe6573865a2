// Source of identifiers and hashes. With a seed the sequence is reproducible (SHA-256 in counter
// mode); without one it is crypto-random. Secrets (API keys) never come from here: they always
// use crypto.randomBytes, so a seeded run cannot make a key guessable.
import { createHash, randomBytes, randomUUID } from 'node:crypto';

export interface RandomSource {
  bytes(length: number): Buffer;
  uuid(): string;
  /** 0x-prefixed lowercase hex of `byteLength` bytes (e.g. 32 for a transaction hash). */
  hex(byteLength: number): string;
}

export function createRandomSource(seed?: string | number): RandomSource {
  let counter = 0;
  const seeded = (length: number): Buffer => {
    const chunks: Buffer[] = [];
    let have = 0;
    while (have < length) {
      const chunk = createHash('sha256')
        .update(`${String(seed)}:${counter++}`)
        .digest();
      chunks.push(chunk);
      have += chunk.length;
    }
    return Buffer.concat(chunks).subarray(0, length);
  };
  const bytes = seed === undefined ? (length: number) => randomBytes(length) : seeded;
  return {
    bytes,
    uuid() {
      // crypto.randomUUID() draws from a pooled entropy buffer; randomBytes(16) costs a syscall per id.
      if (seed === undefined) return randomUUID();
      const b = bytes(16);
      b[6] = ((b[6] ?? 0) & 0x0f) | 0x40; // version 4
      b[8] = ((b[8] ?? 0) & 0x3f) | 0x80; // RFC 4122 variant
      const h = b.toString('hex');
      return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
    },
    hex(byteLength) {
      return `0x${bytes(byteLength).toString('hex')}`;
    },
  };
}
