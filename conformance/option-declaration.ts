// The shape of one option declared as data (the CLI builds its flags from these declarations; a config file is read
// against them). A leaf module, so each group of options (target, integrity) declares its own without importing the
// module that gathers them all.

export type OptionParser =
  | 'string'
  | 'url'
  | 'int'
  | 'positive-int'
  | 'percent'
  | 'list'
  | 'formats'
  | 'replay'
  | 'host-port'
  | 'flag'
  | 'key-value'
  | 'fork'
  | 'header'
  | 'seconds'
  | 'bytes';

export interface OptionDeclaration<Name extends string = string> {
  name: Name;
  flags: string;
  description: string;
  parser: OptionParser;
  /** Shown in --help; the value itself comes from defaults.ts. */
  defaultText?: string;
}
