// Public entry point of the contract: validator, catalogue and file locations.
export {
  loadContract,
  formatViolations,
  type Contract,
  type ContractName,
  type OperationInfo,
  type OperationMatch,
  type RequestSample,
  type ResponseSample,
  type Violation,
  type ViolationKind,
} from './validator.ts';
export {
  loadCatalogue,
  parseCatalogue,
  requirementById,
  CatalogueError,
  REQUIREMENT_ID_PATTERN,
  REQUIREMENT_LEVELS,
  type Requirement,
  type RequirementLevel,
} from './catalogue.ts';
export { openapiPath, controlApiPath, requirementsPath, specFactsPath } from './paths.ts';
