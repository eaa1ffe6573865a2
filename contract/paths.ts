// Absolute paths of the contract files, resolved from this module so they work from any cwd.
import { fileURLToPath } from 'node:url';

const resolve = (relative: string): string => fileURLToPath(new URL(relative, import.meta.url));

/** The service contract (OpenAPI 3.1). */
export const openapiPath = resolve('../openapi.yaml');
/** The simulator's control API (OpenAPI 3.1). */
export const controlApiPath = resolve('../conformance/control-api.yaml');
/** The requirement catalogue. */
export const requirementsPath = resolve('./requirements.yaml');
/** Facts transcribed from the specification's tables. */
export const specFactsPath = resolve('../fixtures/spec-facts.json');
