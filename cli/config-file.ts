// `stablepay.config.json|yaml|yml` (in the current directory) or `--config <file>`: any conformance flag as a key,
// written camelCase (`baseUrl`, `maxFailures`) or as the flag (`base-url`, `--no-webhooks`), plus the implementation
// profile (`profile:` a map, or a profile file's path). The command line overrides the file. An unknown key or a bad
// value, in the profile too, is a usage error naming the file and the line (exit 2).
// JSON files are read with the same YAML parser (JSON is YAML), which gives line numbers for both.
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { isMap, isScalar, LineCounter, parseDocument, type Document } from 'yaml';
import { lineOfPath, profileProblems } from '@stablepay/conformance/premises/profile';
import { OPTION_DECLARATIONS, parseOptionValue, UsageError, type OptionDeclaration } from '@stablepay/conformance/options';
import { longFlag } from './long-flag.ts';

export const CONFIG_FILE_NAMES = ['stablepay.config.json', 'stablepay.config.yaml', 'stablepay.config.yml'];

/** Keys that make no sense in a file: the file itself, and --list (which only prints). */
const NOT_IN_FILE = new Set(['config', 'list']);

export class ConfigFileError extends UsageError {
  constructor(file: string, line: number | null, message: string) {
    super(`${file}${line === null ? '' : `:${line}`}: ${message}`);
    this.name = 'ConfigFileError';
  }
}

export { longFlag };

interface KeyMeaning {
  declaration: OptionDeclaration;
  /** A `--no-x` flag written as `no-x: true` (the value is inverted). */
  negatedFlagKey: boolean;
}

function keyTable(): Map<string, KeyMeaning> {
  const table = new Map<string, KeyMeaning>();
  for (const declaration of OPTION_DECLARATIONS) {
    if (NOT_IN_FILE.has(declaration.name)) continue;
    const flag = longFlag(declaration);
    const negated = flag.startsWith('--no-');
    table.set(flag, { declaration, negatedFlagKey: negated });
    table.set(flag.slice(2), { declaration, negatedFlagKey: negated });
    // camelCase name: `webhooks: false` for --no-webhooks; `faketime` belongs to --faketime <path> (false allowed).
    if (!table.has(declaration.name) || !negated) table.set(declaration.name, { declaration, negatedFlagKey: false });
  }
  return table;
}

/** The file to read: --config, else the first of CONFIG_FILE_NAMES in `cwd`; null when there is none. */
export function findConfigFile(explicit: string | undefined, cwd = process.cwd()): string | null {
  if (explicit !== undefined) {
    const path = resolve(cwd, explicit);
    if (!existsSync(path)) throw new UsageError(`--config: ${explicit} does not exist`);
    return path;
  }
  const present = CONFIG_FILE_NAMES.filter((name) => existsSync(join(cwd, name)));
  if (present.length > 1) throw new UsageError(`both ${present.join(' and ')} exist in ${cwd}; keep one or pass --config`);
  return present.length === 1 ? join(cwd, present[0]!) : null;
}

function asText(value: unknown): string | null {
  if (typeof value === 'string') return value;
  if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  return null;
}

function convert(meaning: KeyMeaning, key: string, value: unknown): unknown {
  const { declaration } = meaning;
  const flag = longFlag(declaration);
  const fail = (expected: string) => new UsageError(`${key}: expected ${expected}, got ${JSON.stringify(value)}`);
  switch (declaration.parser) {
    case 'flag': {
      if (typeof value !== 'boolean') throw fail('true or false');
      return meaning.negatedFlagKey ? !value : value;
    }
    case 'string': {
      if (declaration.name === 'faketime' && value === false) return false;
      const text = asText(value);
      if (text === null || text === '') throw fail('a non-empty string');
      return text;
    }
    case 'list':
    case 'formats': {
      const items = Array.isArray(value) ? value : typeof value === 'string' ? value.split(',') : null;
      if (!items?.every((item) => typeof item === 'string')) throw fail('a list of strings or a comma-separated string');
      return parseOptionValue(declaration.parser, items.join(','), flag);
    }
    case 'replay':
    case 'key-value':
    case 'fork':
    case 'header': {
      const separator = declaration.parser === 'header' ? ': ' : '=';
      let entries: string[];
      if (Array.isArray(value) && value.every((item) => typeof item === 'string')) entries = value as string[];
      else if (value && typeof value === 'object' && !Array.isArray(value)) {
        entries = Object.entries(value).map(([name, item]) => {
          const text = asText(item);
          if (text === null) throw fail('a map of names to strings');
          return `${name}${separator}${text}`;
        });
      } else
        throw fail(
          declaration.parser === 'header'
            ? "a map of header names to values, or a list of 'Name: value'"
            : 'a map or a list of K=V strings',
        );
      const out: Record<string, string> = {};
      for (const entry of entries) {
        const [name, item] = parseOptionValue(declaration.parser, entry, flag) as [string, string];
        out[name] = item;
      }
      return out;
    }
    case 'host-port': {
      const text = asText(value);
      if (text === null) throw fail('"HOST:PORT"');
      parseOptionValue('host-port', text, flag);
      return text;
    }
    default: {
      const text = asText(value);
      if (text === null) throw fail(declaration.parser === 'url' ? 'a URL' : 'a number');
      return parseOptionValue(declaration.parser, text, flag);
    }
  }
}

/**
 * The implementation profile: a map, checked here so a problem names its line in this file, or a path to a profile
 * file of its own, relative to this file.
 */
function profileSection(
  file: string,
  document: Document,
  lines: LineCounter,
  key: string,
  value: unknown,
): string | Record<string, unknown> {
  if (typeof value === 'string' && value !== '') return resolve(dirname(file), value);
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    throw new ConfigFileError(
      file,
      lineOfPath(document, lines, [], [key]),
      `${key}: expected the profile as a map, or the path of a profile file`,
    );
  }
  const problem = profileProblems(value)[0];
  if (problem)
    throw new ConfigFileError(
      file,
      lineOfPath(document, lines, problem.path, [key]),
      `${[key, ...problem.path].join('.')}: ${problem.message}`,
    );
  return value as Record<string, unknown>;
}

/** Options from the file, keyed by option name (as runConformance takes them). */
export function readConfigFile(file: string): Record<string, unknown> {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    throw new ConfigFileError(file, null, `cannot read: ${(error as Error).message}`);
  }
  const lines = new LineCounter();
  const document = parseDocument(text, { lineCounter: lines, prettyErrors: false, uniqueKeys: true });
  const lineOf = (offset: number | undefined) => (offset === undefined ? null : lines.linePos(offset).line);
  if (document.errors.length > 0) {
    const error = document.errors[0]!;
    throw new ConfigFileError(
      file,
      lineOf(error.pos[0]),
      `not valid ${file.endsWith('.json') ? 'JSON' : 'YAML'}: ${error.message.split('\n')[0]}`,
    );
  }
  if (document.contents === null) return {};
  if (!isMap(document.contents))
    throw new ConfigFileError(file, lineOf(document.contents.range?.[0]), 'expected a map of flag names to values');
  const table = keyTable();
  const options: Record<string, unknown> = {};
  const seen = new Map<string, string>();
  for (const pair of document.contents.items) {
    const keyNode = pair.key;
    const line = lineOf(isScalar(keyNode) ? keyNode.range?.[0] : undefined);
    const key = isScalar(keyNode) ? String(keyNode.value) : String(keyNode);
    const meaning = table.get(key);
    if (!meaning)
      throw new ConfigFileError(file, line, `unknown key "${key}" (any flag of stablepay conformance --help, camelCase or as written)`);
    const name = meaning.declaration.name;
    if (seen.has(name)) throw new ConfigFileError(file, line, `"${key}" repeats "${seen.get(name)}"`);
    seen.set(name, key);
    const value = (pair.value as { toJSON?: () => unknown } | null)?.toJSON?.() ?? null;
    if (name === 'profile') {
      options[name] = profileSection(file, document, lines, key, value);
      continue;
    }
    try {
      options[name] = convert(meaning, key, value);
    } catch (error) {
      throw new ConfigFileError(file, line, (error as Error).message);
    }
  }
  return options;
}
