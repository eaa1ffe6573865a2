// Entry point of the `stablepay` command (bundled to dist/stablepay.js, which bin/stablepay.js imports).
import { createProgram } from './program.ts';

await createProgram().parseAsync(process.argv);
