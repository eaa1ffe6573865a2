// Runs only `stablepay start` (the CLI test spawns this: the full CLI also loads the conformance suite).
import { Command } from 'commander';
import { registerStartCommand } from '../cli.ts';

const program = new Command('stablepay');
registerStartCommand(program);
await program.parseAsync(process.argv);
