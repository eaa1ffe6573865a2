// The JSON Schema 2020-12 validator (OpenAPI 3.1's dialect) used for every contract check, with
// the contract's machine-readable extensions that carry validation meaning:
//   x-maximum            upper bound of a decimal-string amount
//   x-currency-minimums  per-currency lower bound of `amount` on an object with `currency`
// Every other `x-` extension, and OpenAPI's `example`, is an annotation.
import { Ajv2020, type ErrorObject } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import { compareDecimals, isDecimalString } from './decimal-compare.ts';

// ajv-formats is CommonJS; under NodeNext its default import is the module namespace.
const addFormats = addFormatsModule as unknown as (ajv: Ajv2020) => Ajv2020;

export const VALIDATING_EXTENSIONS = ['x-maximum', 'x-currency-minimums'] as const;

interface KeywordValidate {
  (schema: unknown, data: unknown, parentSchema?: unknown, dataCxt?: { instancePath: string }): boolean;
  errors?: Partial<ErrorObject>[];
}

function maximumKeyword(): KeywordValidate {
  const validate: KeywordValidate = (schema, data) => {
    validate.errors = [];
    if (typeof data !== 'string' || !isDecimalString(data)) return true; // grammar is the pattern's job
    if (compareDecimals(data, String(schema)) <= 0) return true;
    validate.errors = [{ keyword: 'x-maximum', message: `must be at most ${String(schema)}`, params: { limit: schema } }];
    return false;
  };
  return validate;
}

function currencyMinimumsKeyword(): KeywordValidate {
  const validate: KeywordValidate = (schema, data, _parent, dataCxt) => {
    validate.errors = [];
    if (typeof data !== 'object' || data === null) return true;
    const { currency, amount } = data as { currency?: unknown; amount?: unknown };
    const minimums = schema as Record<string, string>;
    if (typeof currency !== 'string' || typeof amount !== 'string' || !isDecimalString(amount)) return true;
    const minimum = minimums[currency];
    if (minimum === undefined || compareDecimals(amount, minimum) >= 0) return true;
    validate.errors = [
      {
        keyword: 'x-currency-minimums',
        instancePath: `${dataCxt?.instancePath ?? ''}/amount`,
        message: `must be at least ${minimum} for ${currency}`,
        params: { currency, limit: minimum },
      },
    ];
    return false;
  };
  return validate;
}

/** A fresh validator; `annotations` are further keywords (the document's `x-` extensions) to accept. */
export function createContractAjv(annotations: Iterable<string> = []): Ajv2020 {
  const ajv = new Ajv2020({
    allErrors: true,
    allowUnionTypes: true,
    // Patterns and formats sit on schemas without `type` inside allOf/if branches by design.
    strictTypes: false,
    strictTuples: false,
    // Unknown keywords stay errors, so a typo in the contract fails loudly.
    strictSchema: true,
  });
  addFormats(ajv);
  ajv.addKeyword({ keyword: 'x-maximum', schemaType: 'string', errors: true, validate: maximumKeyword() });
  ajv.addKeyword({ keyword: 'x-currency-minimums', schemaType: 'object', errors: true, validate: currencyMinimumsKeyword() });
  const known = new Set<string>(VALIDATING_EXTENSIONS);
  for (const keyword of ['example', ...annotations]) {
    if (known.has(keyword)) continue;
    known.add(keyword);
    ajv.addKeyword({ keyword });
  }
  return ajv;
}

/** Every `x-` key used anywhere in a document (to register them as annotations). */
export function collectExtensionKeys(document: unknown): Set<string> {
  const keys = new Set<string>();
  const seen = new Set<object>();
  const visit = (node: unknown): void => {
    if (typeof node !== 'object' || node === null || seen.has(node)) return;
    seen.add(node);
    for (const [key, value] of Object.entries(node)) {
      if (key.startsWith('x-')) keys.add(key);
      visit(value);
    }
  };
  visit(document);
  return keys;
}
