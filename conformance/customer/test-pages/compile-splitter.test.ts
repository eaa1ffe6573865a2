// The committed splitter artifact is what solc makes of CheckoutSplitter.sol today.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { compileSplitter, SPLITTER_ARTIFACT } from './compile-splitter.ts';

describe('fixtures/contracts/suite/CheckoutSplitter.json', () => {
  it('matches a fresh solc compile of CheckoutSplitter.sol', () => {
    expect(readFileSync(SPLITTER_ARTIFACT, 'utf8')).toBe(compileSplitter());
  }, 60_000);
});
