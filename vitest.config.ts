import { defineConfig } from 'vitest/config';
import SlowestFirst from './cli/test-support/slowest-first.ts';

// One run covers every test of the project: unit tests beside the code, contract checks,
// simulator HTTP tests, chain tests, the conformance self-tests and the property tests.
export default defineConfig({
  test: {
    include: ['**/*.test.ts'],
    exclude: ['node_modules/**', 'dist/**'],
    // Build dist/ (the CLI and the pay page's browser script) once, so every test runs the current code.
    globalSetup: ['cli/test-support/build-once.ts'],
    testTimeout: 60_000,
    hookTimeout: 120_000,
    // Two cores: keep forks bounded so chain-backed tests do not starve each other.
    pool: 'forks',
    maxWorkers: 2,
    // The files known to take longest start first, so no long file is left to run alone at the end.
    sequence: { sequencer: SlowestFirst },
  },
});
