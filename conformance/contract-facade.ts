// The suite's single door to the contract (openapi.yaml through contract/validator.ts, and the
// requirement catalogue through contract/catalogue.ts). Checks talk to this facade only, so the
// contract modules' exact shapes matter in one file.
import { loadCatalogue } from '@stablepay/contract/catalogue';
import type { CatalogueRequirement } from './types.ts';

export interface ContractViolation {
  kind: string;
  message: string;
  /** `assumed` when only a choice of ours is violated: the suite then warns (outside --strict). */
  level: 'documented' | 'assumed';
  /** Catalogue IDs the violated element of the contract encodes. */
  requirements: string[];
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

export function loadCatalogueRequirements(): CatalogueRequirement[] {
  return loadCatalogue().map(({ id, section, statement, level, tags }) => ({ id, section, statement, level, tags }));
}
