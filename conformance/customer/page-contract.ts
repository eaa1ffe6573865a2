// The page contract: what the customer agent relies on in an implementation's hosted page, as accessible roles and
// names (catalogue PAGE-*, assumed). Our page satisfies the defaults; an implementer whose page differs overrides
// them in a JSON file (`--page-contract <file>`). Names are regular expressions (JavaScript syntax, case-insensitive);
// `{chain}` and `{token}` in the pair's name stand for the chain's name (e.g. "Polygon") and the token symbol.
import { readFileSync } from 'node:fs';
import { UsageError } from '../usage-error.ts';

export type AriaRole =
  | 'button'
  | 'radio'
  | 'option'
  | 'link'
  | 'status'
  | 'alert'
  | 'region'
  | 'menuitem'
  | 'tab'
  | 'checkbox'
  | 'combobox';

export interface RoleQuery {
  role: AriaRole;
  /** Regular expression source matched against the accessible name. */
  name: string;
}

export interface PageContract {
  /** PAGE-CONNECT-WALLET: the action that connects an injected EIP-1193 wallet. */
  connect: RoleQuery;
  /** PAGE-PAIR-CHOICE: one control per (chain, token) pair; `{chain}`/`{token}` are filled in. */
  pair: RoleQuery;
  /** PAGE-PAY-ACTION: the action that pays (enabled once connected and a pair is picked). */
  pay: RoleQuery;
  /** PAGE-FINAL-STATE: the element whose text shows the payment's state, and the text of each end state. */
  state: RoleQuery & { successful: string; failed: string; expired: string; cancelled: string };
}

export const DEFAULT_PAGE_CONTRACT: PageContract = {
  connect: { role: 'button', name: '^connect( browser)? wallet$' },
  pair: { role: 'radio', name: '{chain}\\s*·\\s*{token}\\b' },
  pay: { role: 'button', name: '^pay\\b' },
  state: {
    role: 'status',
    name: '',
    successful: 'payment complete',
    failed: 'payment failed',
    expired: 'payment expired',
    cancelled: 'payment cancelled',
  },
};

const ROLES: readonly AriaRole[] = [
  'button',
  'radio',
  'option',
  'link',
  'status',
  'alert',
  'region',
  'menuitem',
  'tab',
  'checkbox',
  'combobox',
];

export function nameRegExp(source: string): RegExp {
  return new RegExp(source, 'i');
}

const escapeRegExp = (text: string): string => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** The pair's name pattern for one chain and token. */
export function pairName(contract: PageContract, chainName: string, token: string): RegExp {
  return nameRegExp(contract.pair.name.replaceAll('{chain}', escapeRegExp(chainName)).replaceAll('{token}', escapeRegExp(token)));
}

/** How a query reads in a failure: `getByRole('button', { name: /^pay\b/i })`. */
export function describeQuery(query: { role: string; name: RegExp | string }): string {
  const name = query.name instanceof RegExp ? String(query.name) : JSON.stringify(query.name);
  return `getByRole('${query.role}', { name: ${name} })`;
}

/** Reads and checks an override file; every bad entry is a usage error (exit 2), one sentence. */
export function loadPageContract(path: string | undefined): PageContract {
  if (!path) return DEFAULT_PAGE_CONTRACT;
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(path, 'utf8'));
  } catch (error) {
    throw new UsageError(`--page-contract: cannot read ${path} as JSON (${(error as Error).message.split('\n')[0]})`);
  }
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw))
    throw new UsageError(`--page-contract: ${path} must hold a JSON object`);
  const merged = structuredClone(DEFAULT_PAGE_CONTRACT) as unknown as Record<string, Record<string, string>>;
  for (const [key, value] of Object.entries(raw as Record<string, unknown>)) {
    if (!(key in merged)) throw new UsageError(`--page-contract: unknown entry "${key}" (known: ${Object.keys(merged).join(', ')})`);
    if (typeof value !== 'object' || value === null) throw new UsageError(`--page-contract: "${key}" must be an object`);
    for (const [field, text] of Object.entries(value as Record<string, unknown>)) {
      if (!(field in merged[key]!))
        throw new UsageError(`--page-contract: unknown field "${key}.${field}" (known: ${Object.keys(merged[key]!).join(', ')})`);
      if (typeof text !== 'string') throw new UsageError(`--page-contract: "${key}.${field}" must be a string`);
      if (field === 'role' && !ROLES.includes(text as AriaRole))
        throw new UsageError(`--page-contract: "${key}.role" must be one of ${ROLES.join(', ')}`);
      if (field !== 'role') {
        try {
          nameRegExp(text);
        } catch {
          throw new UsageError(`--page-contract: "${key}.${field}" is not a valid regular expression`);
        }
      }
      merged[key]![field] = text;
    }
  }
  return merged as unknown as PageContract;
}
