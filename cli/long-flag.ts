// A conformance option's long flag (`--base-url`), apart from config-file.ts: the flags are declared on every run of
// the CLI, and config-file.ts loads the YAML parser, which only a run that reads a configuration file needs.
import type { OptionDeclaration } from '@stablepay/conformance/options';

export function longFlag(declaration: OptionDeclaration): string {
  return /--[a-z0-9-]+/.exec(declaration.flags)![0];
}
