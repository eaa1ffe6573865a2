// Loads a contract document, dereferenced, and indexes its operations and webhooks.
import SwaggerParser from '@apidevtools/swagger-parser';
import { controlApiPath, openapiPath } from './paths.ts';
import { isAssumed, requirementsOf } from './violation.ts';

export type ContractName = 'service' | 'control';

export type JsonObject = Record<string, unknown>;

export const HTTP_METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'] as const;
export type HttpMethod = (typeof HTTP_METHODS)[number];

export interface ParameterObject extends JsonObject {
  name: string;
  in: 'query' | 'header' | 'path' | 'cookie';
  required?: boolean;
  schema?: JsonObject;
}

export interface OperationInfo {
  operationId: string;
  method: HttpMethod;
  /** Path template as written in the document, e.g. `/v1/payments/{id}`. */
  pathTemplate: string;
  /** Path-level and operation-level parameters, the latter overriding. */
  parameters: ParameterObject[];
  /** The dereferenced operation object. */
  operation: JsonObject;
  /** `assumed` when the operation's shapes are our choice (or the whole document is). */
  level: 'documented' | 'assumed';
  requirements: string[];
}

export interface ContractDocument {
  name: ContractName;
  /** The dereferenced OpenAPI document. */
  document: JsonObject;
  /** Path prefix of the first server URL (e.g. `/control/v1`), '' when none. */
  basePath: string;
  /** Whether the document as a whole is assumed (the control API). */
  assumed: boolean;
  operations: OperationInfo[];
  /** Webhook name (event type) -> its POST operation. */
  webhooks: Map<string, OperationInfo>;
}

export const documentPaths: Record<ContractName, string> = { service: openapiPath, control: controlApiPath };

const asObject = (value: unknown): JsonObject => (typeof value === 'object' && value !== null ? (value as JsonObject) : {});

function basePathOf(document: JsonObject): string {
  const servers = document['servers'];
  const first = Array.isArray(servers) ? asObject(servers[0]) : {};
  let url = typeof first['url'] === 'string' ? first['url'] : '';
  const variables = asObject(first['variables']);
  url = url.replace(/\{([^}]+)\}/g, (_, name: string) => String(asObject(variables[name])['default'] ?? ''));
  const path = url.replace(/^[a-z][a-z0-9+.-]*:\/\/[^/]*/i, '');
  return path === '/' ? '' : path.replace(/\/$/, '');
}

function mergeParameters(pathItem: JsonObject, operation: JsonObject): ParameterObject[] {
  const merged = new Map<string, ParameterObject>();
  for (const source of [pathItem['parameters'], operation['parameters']]) {
    if (!Array.isArray(source)) continue;
    for (const parameter of source as ParameterObject[]) merged.set(`${parameter.in}:${parameter.name}`, parameter);
  }
  return [...merged.values()];
}

function indexOperations(items: JsonObject, documentAssumed: boolean): OperationInfo[] {
  const operations: OperationInfo[] = [];
  for (const [pathTemplate, item] of Object.entries(items)) {
    const pathItem = asObject(item);
    for (const method of HTTP_METHODS) {
      const operation = pathItem[method];
      if (typeof operation !== 'object' || operation === null) continue;
      const op = operation as JsonObject;
      operations.push({
        operationId: String(op['operationId'] ?? `${method} ${pathTemplate}`),
        method,
        pathTemplate,
        parameters: mergeParameters(pathItem, op),
        operation: op,
        level: documentAssumed || isAssumed(op) ? 'assumed' : 'documented',
        requirements: requirementsOf(op),
      });
    }
  }
  return operations;
}

export async function loadContractDocument(name: ContractName): Promise<ContractDocument> {
  const document = (await SwaggerParser.dereference(documentPaths[name])) as unknown as JsonObject;
  const assumed = isAssumed(document['info']);
  const webhookOperations = indexOperations(asObject(document['webhooks']), assumed);
  return {
    name,
    document,
    basePath: basePathOf(document),
    assumed,
    operations: indexOperations(asObject(document['paths']), assumed),
    webhooks: new Map(webhookOperations.filter((o) => o.method === 'post').map((o) => [o.pathTemplate, o])),
  };
}
