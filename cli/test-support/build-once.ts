// vitest globalSetup: builds the package (scripts/build.mjs, well under a second) once before any test runs, so
// tests that spawn `bin/stablepay.js` run the current code and the payment page serves the current browser script.
// @ts-expect-error: a plain ES module without type declarations (it must run under node at `npm install` time).
import { buildAll } from '../../scripts/build.mjs';

export default async function setup(): Promise<void> {
  await (buildAll as () => Promise<void>)();
}
