// The suite's single door to the contract (openapi.yaml through contract/validator.ts, and the
// requirement catalogue through contract/catalogue.ts). Checks talk to this facade only, so the
// contract modules' exact shapes matter in one file.
import type { CatalogueRequirement } from './types.ts';

export interface ContractViolation {
  /** Requirement the violated element cites, when the contract says. */
  requirement?: string;
  kind: string;
  message: string;
}

export interface ResponseToValidate {
  method: string;
  /** Path as requested (concrete ids); the contract matches it to a template. */
  path: string;
  status: number;
  headers: Record<string, string>;
  body: unknown;
}

export interface ContractFacade {
  /** False when the contract modules could not be loaded. */
  available: boolean;
  /** Operation template for a concrete request, or null when the contract has no such operation. */
  operationOf(method: string, path: string): string | null;
  validateResponse(response: ResponseToValidate): ContractViolation[];
  validateWebhook(eventType: string, payload: unknown, headers: Record<string, string>): ContractViolation[];
  /** JSON schema of the create-payment request body (limits are generated from it). */
  createPaymentSchema(): Record<string, unknown>;
}

export async function loadCatalogueRequirements(): Promise<CatalogueRequirement[]> {
  const specifier = '../contract/catalogue.ts';
  let module: { loadCatalogue: () => unknown };
  try {
    module = (await import(specifier)) as { loadCatalogue: () => unknown };
  } catch {
    return [];
  }
  const loaded = await Promise.resolve(module.loadCatalogue());
  const entries = Array.isArray(loaded) ? loaded : ((loaded as { requirements?: unknown[] }).requirements ?? []);
  return (entries as CatalogueRequirement[]).map((entry) => ({
    id: entry.id,
    section: String(entry.section ?? ''),
    statement: String(entry.statement ?? ''),
    level: entry.level === 'assumed' ? 'assumed' : 'documented',
    tags: Array.isArray(entry.tags) ? entry.tags : [],
  }));
}
