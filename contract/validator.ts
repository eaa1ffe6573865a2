// The contract validator: checks HTTP exchanges and webhook deliveries against the dereferenced
// OpenAPI documents with JSON Schema 2020-12 (ajv). Load once (async), validate synchronously.
import type { Ajv2020, ValidateFunction } from 'ajv/dist/2020.js';
import { coerceToSchema } from './coerce.ts';
import {
  loadContractDocument,
  type ContractDocument,
  type ContractName,
  type JsonObject,
  type OperationInfo,
  type ParameterObject,
} from './contract-document.ts';
import { PathMatcher, pathnameOf } from './path-matcher.ts';
import { collectExtensionKeys, createContractAjv } from './schema-ajv.ts';
import { isAssumed, requirementsOf, schemaErrorsToViolations, type Violation } from './violation.ts';

export type { ContractName, OperationInfo } from './contract-document.ts';
export type { Violation, ViolationKind } from './violation.ts';
export { formatViolations } from './violation.ts';

export interface OperationMatch {
  operationId: string;
  method: string;
  pathTemplate: string;
  params: Record<string, string>;
}

export interface ResponseSample {
  method: string;
  /** Path or full URL; the query string is ignored. */
  path: string;
  status: number;
  /** Response headers; names are matched case-insensitively. */
  headers: Record<string, string>;
  /** Parsed JSON, raw text (parsed here when the media type is JSON), or undefined for no body. */
  body: unknown;
}

export interface RequestSample {
  body?: unknown;
  query?: Record<string, string | string[] | undefined> | URLSearchParams;
  headers?: Record<string, string>;
  pathParams?: Record<string, string>;
}

export interface Contract {
  readonly name: ContractName;
  /** The dereferenced OpenAPI document. */
  readonly document: JsonObject;
  readonly operations: readonly OperationInfo[];
  /** Event types with a webhook definition. */
  readonly webhookEvents: readonly string[];
  findOperation(method: string, urlPath: string): OperationMatch | undefined;
  validateResponse(response: ResponseSample): Violation[];
  validateRequest(operationId: string, request: RequestSample): Violation[];
  validateWebhook(eventType: string, payload: unknown, headers: Record<string, string>): Violation[];
}

const asObject = (value: unknown): JsonObject => (typeof value === 'object' && value !== null ? (value as JsonObject) : {});
const lowerKeys = (headers: Record<string, string>): Map<string, string> =>
  new Map(Object.entries(headers).map(([k, v]) => [k.toLowerCase(), v]));
const mediaTypeOf = (contentType: string): string => (contentType.split(';')[0] ?? '').trim().toLowerCase();
const isJsonMediaType = (mediaType: string): boolean => mediaType === 'application/json' || mediaType.endsWith('+json');

function mediaTypeMatches(actual: string, documented: string): boolean {
  const wanted = documented.toLowerCase();
  if (wanted === actual || wanted === '*/*') return true;
  return wanted.endsWith('/*') && actual.startsWith(wanted.slice(0, -1));
}

class ContractValidator implements Contract {
  readonly name: ContractName;
  readonly document: JsonObject;
  readonly operations: readonly OperationInfo[];
  readonly webhookEvents: readonly string[];
  readonly #source: ContractDocument;
  readonly #ajv: Ajv2020;
  readonly #compiled = new WeakMap<object, ValidateFunction>();
  readonly #matcher: PathMatcher;
  readonly #byId: Map<string, OperationInfo>;

  constructor(source: ContractDocument) {
    this.#source = source;
    this.name = source.name;
    this.document = source.document;
    this.operations = source.operations;
    this.webhookEvents = [...source.webhooks.keys()];
    this.#ajv = createContractAjv(collectExtensionKeys(source.document));
    this.#matcher = new PathMatcher(new Set(source.operations.map((o) => o.pathTemplate)));
    this.#byId = new Map(source.operations.map((o) => [o.operationId, o]));
  }

  findOperation(method: string, urlPath: string): OperationMatch | undefined {
    const info = this.#find(method, urlPath);
    return info && { operationId: info.op.operationId, method: info.op.method, pathTemplate: info.op.pathTemplate, params: info.params };
  }

  validateResponse({ method, path, status, headers, body }: ResponseSample): Violation[] {
    const found = this.#find(method, path);
    if (!found) return [this.#unknownOperation(method, path)];
    const { op } = found;
    const responses = asObject(op.operation['responses']);
    const response = responses[String(status)] ?? responses[`${Math.floor(status / 100)}XX`] ?? responses['default'];
    if (response === undefined) {
      return [
        {
          kind: 'status',
          message: `${op.operationId} (${method.toUpperCase()} ${op.pathTemplate}) does not document status ${status}; documented: ${Object.keys(responses).join(', ')}`,
          level: op.level,
          requirements: op.requirements,
        },
      ];
    }
    const responseObject = asObject(response);
    const subject = `${op.operationId} ${status}`;
    const assumed = this.#source.assumed;
    return [
      ...this.#checkHeaders(asObject(responseObject['headers']), lowerKeys(headers), subject, assumed),
      ...this.#checkContent(asObject(responseObject['content']), lowerKeys(headers).get('content-type'), body, subject, assumed),
    ];
  }

  validateRequest(operationId: string, { body, query, headers, pathParams }: RequestSample): Violation[] {
    const op = this.#byId.get(operationId);
    if (!op) return [{ kind: 'operation', message: `unknown operationId ${operationId}`, level: 'documented', requirements: [] }];
    const violations: Violation[] = [];
    const values: Record<ParameterObject['in'], (name: string) => string | undefined> = {
      query: (name) => {
        if (query instanceof URLSearchParams) return query.get(name) ?? undefined;
        const value = query?.[name];
        return Array.isArray(value) ? value[0] : value;
      },
      header: (name) => (headers ? lowerKeys(headers).get(name.toLowerCase()) : undefined),
      path: (name) => pathParams?.[name],
      cookie: () => undefined,
    };
    for (const parameter of op.parameters) {
      if (parameter.in === 'path' && !pathParams) continue;
      if (parameter.in === 'header' && !headers) continue;
      const value = values[parameter.in](parameter.name);
      violations.push(...this.#checkValue(parameter, value, 'parameter', `${parameter.in} parameter ${parameter.name}`));
    }
    const requestBody = asObject(op.operation['requestBody']);
    const content = asObject(requestBody['content']);
    if (Object.keys(content).length > 0) {
      if (body === undefined) {
        if (requestBody['required'] === true) {
          violations.push({
            kind: 'body',
            message: `${operationId}: request body is required`,
            level: op.level,
            requirements: op.requirements,
          });
        }
      } else {
        const [mediaType, media] = Object.entries(content)[0] ?? [];
        violations.push(
          ...this.#checkBody(asObject(media), mediaType ?? 'application/json', body, `${operationId} request body`, this.#source.assumed),
        );
      }
    }
    return violations;
  }

  validateWebhook(eventType: string, payload: unknown, headers: Record<string, string>): Violation[] {
    const op = this.#source.webhooks.get(eventType);
    if (!op) {
      return [
        {
          kind: 'operation',
          message: `no webhook is documented for event type ${JSON.stringify(eventType)}`,
          level: 'documented',
          requirements: ['WH-PAYLOAD-EVENT'],
        },
      ];
    }
    const lowered = lowerKeys(headers);
    const violations: Violation[] = [];
    for (const parameter of op.parameters.filter((p) => p.in === 'header')) {
      violations.push(
        ...this.#checkValue(
          parameter,
          lowered.get(parameter.name.toLowerCase()),
          'header',
          `webhook ${eventType} header ${parameter.name}`,
        ),
      );
    }
    const content = asObject(asObject(op.operation['requestBody'])['content']);
    violations.push(
      ...this.#checkBody(
        asObject(content['application/json']),
        'application/json',
        payload,
        `webhook ${eventType} payload`,
        this.#source.assumed,
      ),
    );
    return violations;
  }

  #find(method: string, urlPath: string): { op: OperationInfo; params: Record<string, string> } | undefined {
    let path = pathnameOf(urlPath);
    const base = this.#source.basePath;
    if (base && (path === base || path.startsWith(`${base}/`))) path = path.slice(base.length) || '/';
    const wanted = method.toLowerCase();
    for (const match of this.#matcher.matchAll(path)) {
      const op = this.operations.find((o) => o.pathTemplate === match.template && o.method === wanted);
      if (op) return { op, params: match.params };
    }
    return undefined;
  }

  #unknownOperation(method: string, path: string): Violation {
    const known = this.#matcher.matchAll(this.#stripBase(path));
    const hint =
      known.length > 0
        ? ` (the path exists for: ${this.operations
            .filter((o) => o.pathTemplate === known[0]?.template)
            .map((o) => o.method.toUpperCase())
            .join(', ')})`
        : '';
    return {
      kind: 'operation',
      message: `no operation is documented for ${method.toUpperCase()} ${pathnameOf(path)}${hint}`,
      level: 'documented',
      requirements: [],
    };
  }

  #stripBase(path: string): string {
    const pathname = pathnameOf(path);
    const base = this.#source.basePath;
    return base && pathname.startsWith(base) ? pathname.slice(base.length) || '/' : pathname;
  }

  #checkHeaders(documented: JsonObject, actual: Map<string, string>, subject: string, assumed: boolean): Violation[] {
    const violations: Violation[] = [];
    for (const [name, header] of Object.entries(documented)) {
      const headerObject = { ...asObject(header), name } as ParameterObject;
      violations.push(...this.#checkValue(headerObject, actual.get(name.toLowerCase()), 'header', `${subject} header ${name}`, assumed));
    }
    return violations;
  }

  /** A header or parameter: presence when required, then its schema on the coerced value. */
  #checkValue(
    parameter: ParameterObject,
    value: string | undefined,
    kind: 'header' | 'parameter',
    subject: string,
    forceAssumed = false,
  ): Violation[] {
    const assumed = forceAssumed || this.#source.assumed || isAssumed(parameter);
    const requirements = requirementsOf(parameter);
    if (value === undefined) {
      if (parameter.required !== true) return [];
      return [{ kind, message: `${subject} is missing`, pointer: parameter.name, level: assumed ? 'assumed' : 'documented', requirements }];
    }
    const schema = parameter.schema;
    if (!schema) return [];
    const validate = this.#compile(schema);
    if (validate(coerceToSchema(value, schema))) return [];
    return schemaErrorsToViolations(validate.errors ?? [], schema, {
      kind,
      subject: `${subject} (${JSON.stringify(value)})`,
      assumed,
      requirements,
    }).map((v) => ({ ...v, pointer: parameter.name }));
  }

  #checkContent(content: JsonObject, contentType: string | undefined, body: unknown, subject: string, assumed: boolean): Violation[] {
    const documented = Object.keys(content);
    const hasBody = body !== undefined && body !== null && body !== '';
    if (documented.length === 0) {
      return hasBody
        ? [{ kind: 'body', message: `${subject}: no body is documented, but one was sent`, level: 'documented', requirements: [] }]
        : [];
    }
    const level = assumed || !documented.some(isJsonMediaType) ? 'assumed' : 'documented';
    const requirements = documented.some(isJsonMediaType) ? ['FMT-JSON-BODIES'] : [];
    if (contentType === undefined) {
      return [
        { kind: 'content-type', message: `${subject}: Content-Type is missing; documented: ${documented.join(', ')}`, level, requirements },
      ];
    }
    const actual = mediaTypeOf(contentType);
    const mediaType = documented.find((d) => mediaTypeMatches(actual, d));
    if (mediaType === undefined) {
      return [
        {
          kind: 'content-type',
          message: `${subject}: Content-Type ${contentType} is not documented; documented: ${documented.join(', ')}`,
          level,
          requirements,
        },
      ];
    }
    return this.#checkBody(asObject(content[mediaType]), mediaType, body, `${subject} body`, assumed);
  }

  #checkBody(media: JsonObject, mediaType: string, body: unknown, subject: string, assumed: boolean): Violation[] {
    const schema = asObject(media['schema']);
    let value = body;
    if (isJsonMediaType(mediaType.toLowerCase()) && typeof body === 'string') {
      try {
        value = JSON.parse(body);
      } catch (error) {
        return [
          {
            kind: 'body',
            message: `${subject}: not valid JSON (${(error as Error).message})`,
            level: 'documented',
            requirements: ['FMT-JSON-BODIES'],
          },
        ];
      }
    }
    if (value === undefined)
      return [{ kind: 'body', message: `${subject}: missing`, level: assumed ? 'assumed' : 'documented', requirements: [] }];
    const validate = this.#compile(schema);
    if (validate(value)) return [];
    return schemaErrorsToViolations(validate.errors ?? [], schema, { kind: 'body', subject, assumed });
  }

  #compile(schema: object): ValidateFunction {
    let validate = this.#compiled.get(schema);
    if (!validate) {
      validate = this.#ajv.compile(schema);
      this.#compiled.set(schema, validate);
    }
    return validate;
  }
}

const loaded = new Map<ContractName, Promise<Contract>>();

/** The service contract (default) or the control API contract; loaded once per process. */
export function loadContract(which: ContractName = 'service'): Promise<Contract> {
  let contract = loaded.get(which);
  if (!contract) {
    contract = loadContractDocument(which).then((source) => new ContractValidator(source));
    contract.catch(() => loaded.delete(which));
    loaded.set(which, contract);
  }
  return contract;
}
