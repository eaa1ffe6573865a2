// Every example in both documents (media types, parameters, headers, schemas, webhooks) is valid
// against its schema, checked with the contract's own validator setup (x-maximum and friends on).
import SwaggerParser from '@apidevtools/swagger-parser';
import type { Ajv2020 } from 'ajv/dist/2020.js';
import { describe, expect, it } from 'vitest';
import { controlApiPath, openapiPath } from './paths.ts';
import { collectExamples, type ExampleCase } from './example-walk.ts';
import { collectExtensionKeys, createContractAjv } from './schema-ajv.ts';

function check(ajv: Ajv2020, cases: ExampleCase[]): string[] {
  const failures: string[] = [];
  for (const { where, schema, value } of cases) {
    const validate = ajv.compile(schema);
    if (!validate(value)) failures.push(`${where}: ${ajv.errorsText(validate.errors)}`);
  }
  return failures;
}

describe.each([
  ['openapi.yaml', openapiPath, 75],
  ['conformance/control-api.yaml', controlApiPath, 38],
])('examples of %s', (_name, path, floor) => {
  it(`are all valid against their schemas (at least ${floor} checked)`, async () => {
    const document = await SwaggerParser.dereference(path);
    const cases = collectExamples(document);
    expect(cases.length).toBeGreaterThan(floor);
    expect(check(createContractAjv(collectExtensionKeys(document)), cases)).toEqual([]);
  });
});

describe('the example walk', () => {
  it('finds every kind of example and reports an invalid one', async () => {
    const document = await SwaggerParser.dereference(openapiPath);
    const cases = collectExamples(document);
    const places = cases.map((c) => c.where);
    expect(places.some((w) => w.includes('/requestBody/content/application/json/examples/'))).toBe(true);
    expect(places.some((w) => w.includes('/responses/201/content/application/json/examples/'))).toBe(true);
    expect(places.some((w) => w.startsWith('#/webhooks/payment.completed/'))).toBe(true);
    expect(places.some((w) => w.includes('/headers/X-RateLimit-Limit/example'))).toBe(true);
    expect(places.some((w) => w.includes('/parameters/') && w.endsWith('/example'))).toBe(true);
    expect(places.some((w) => /\/error\/anyOf\/0\/properties\/code\/examples\/0$/.test(w))).toBe(true);

    const create = cases.find(
      (c) => c.where.includes('/paths/~1v1~1payments/post/requestBody') || c.where.includes('/paths//v1/payments/post/requestBody'),
    );
    expect(create).toBeDefined();
    const broken = { ...create!, value: { ...(create!.value as object), amount: '1000000000000.01' } };
    expect(check(createContractAjv(collectExtensionKeys(document)), [broken])).toHaveLength(1);
  });
});

describe.each([
  ['openapi.yaml', openapiPath],
  ['conformance/control-api.yaml', controlApiPath],
])('coverage of examples in %s', (_name, path) => {
  it('gives every request body and every response body at least one example', async () => {
    const document = (await SwaggerParser.dereference(path)) as unknown as Record<
      string,
      Record<string, Record<string, Record<string, unknown>>>
    >;
    const missing: string[] = [];
    const hasExample = (media: Record<string, unknown>): boolean =>
      'example' in media ||
      (typeof media['examples'] === 'object' && media['examples'] !== null && Object.keys(media['examples']).length > 0);
    for (const section of ['paths', 'webhooks'] as const) {
      for (const [name, item] of Object.entries(document[section] ?? {})) {
        for (const [method, operation] of Object.entries(item)) {
          if (typeof operation !== 'object' || operation === null || !('responses' in operation)) continue;
          const op = operation as {
            requestBody?: { content?: Record<string, Record<string, unknown>> };
            responses: Record<string, { content?: Record<string, Record<string, unknown>> }>;
          };
          for (const [type, media] of Object.entries(op.requestBody?.content ?? {})) {
            if (!hasExample(media)) missing.push(`${method.toUpperCase()} ${name} request ${type}`);
          }
          for (const [status, response] of Object.entries(op.responses)) {
            for (const [type, media] of Object.entries(response.content ?? {})) {
              if (!hasExample(media)) missing.push(`${method.toUpperCase()} ${name} ${status} ${type}`);
            }
          }
        }
      }
    }
    expect(missing).toEqual([]);
  });
});
