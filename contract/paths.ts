// Absolute paths of the contract files, resolved from the package root so they work from any cwd and from the
// built CLI alike.
import { fromPackageRoot } from './package-root.ts';

/** The service contract (OpenAPI 3.1). */
export const openapiPath = fromPackageRoot('openapi.yaml');
/** The simulator's control API (OpenAPI 3.1). */
export const controlApiPath = fromPackageRoot('conformance', 'control-api.yaml');
/** The requirement catalogue. */
export const requirementsPath = fromPackageRoot('contract', 'requirements.yaml');
/** Facts transcribed from the specification's tables. */
export const specFactsPath = fromPackageRoot('fixtures', 'spec-facts.json');
