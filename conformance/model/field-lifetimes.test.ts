// The lifetime table is derived from the contract and the catalogue, not written beside them: it
// covers exactly the properties of the contract's Payment schema, and every requirement it reports
// is a catalogue entry. The retrieve view's closed shape is an assumed keyword (only the create view
// "carries only" its fields), so an extra field there warns while one in the create view fails.
import { beforeAll, describe, expect, it } from 'vitest';
import { loadCatalogue } from '@stablepay/contract/catalogue';
import { loadContract } from '@stablepay/contract/validator';
import { FIELD_LIFETIMES, INVARIANT_REQUIREMENTS, fieldRequirement, type PaymentField } from './field-lifetimes.ts';

type Json = Record<string, unknown>;
let contract: Awaited<ReturnType<typeof loadContract>>;

beforeAll(async () => {
  contract = await loadContract('service');
});

const schema = (name: string): Json => ((contract.document.components as Json).schemas as Json)[name] as Json;

describe('field lifetimes', () => {
  it('cover exactly the Payment properties of the contract', () => {
    expect(Object.keys(FIELD_LIFETIMES).sort()).toEqual(Object.keys(schema('Payment').properties as Json).sort());
  });

  it('report only catalogue requirements, each field under its own statement', () => {
    const ids = new Set(loadCatalogue().map((r) => r.id));
    expect(INVARIANT_REQUIREMENTS.filter((id) => !ids.has(id))).toEqual([]);
    expect(fieldRequirement('updatedAt' as PaymentField)).toBe('PAY-FIELD-UPDATED-AT');
    expect(fieldRequirement('merchantFeeToken' as PaymentField)).toBe('PAY-FIELD-MERCHANT-FEE-TOKEN');
    expect(fieldRequirement('acceptedChains' as PaymentField)).toBe('PAY-ACCEPTED-STORED-AS-REQUESTED');
  });

  it('an extra field is an assumed finding in the retrieve view and a documented one in the create view', () => {
    const id = '3f1c2a9e-8b7d-4c6e-9a5f-1e2d3c4b5a69';
    const retrieve = contract.validateResponse({
      method: 'GET',
      path: `/v1/payments/${id}`,
      status: 200,
      headers: { 'content-type': 'application/json' },
      body: { ...retrieveExample(), extraField: 1 },
    });
    const extra = retrieve.filter((v) => v.message.includes('extraField'));
    expect(extra.length).toBeGreaterThan(0);
    expect(extra.every((v) => v.level === 'assumed')).toBe(true);
    const create = contract.validateResponse({
      method: 'POST',
      path: '/v1/payments',
      status: 201,
      headers: { 'content-type': 'application/json' },
      body: { ...createExample(), extraField: 1 },
    });
    expect(create.filter((v) => v.message.includes('extraField')).map((v) => v.level)).toContain('documented');
  });
});

/** The first example of an operation's JSON response in the contract. */
function exampleOf(path: string, method: string, status: string): Json {
  const media = ((((((contract.document.paths as Json)[path] as Json)[method] as Json).responses as Json)[status] as Json).content as Json)[
    'application/json'
  ] as Json;
  const first = Object.values(media.examples as Json)[0] as Json;
  return first.value as Json;
}
const retrieveExample = (): Json => exampleOf('/v1/payments/{id}', 'get', '200');
const createExample = (): Json => exampleOf('/v1/payments', 'post', '201');
