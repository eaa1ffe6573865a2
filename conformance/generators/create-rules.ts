// The create-payment rules the suite generates inputs from, read from the contract's request schema
// (openapi.yaml via the contract facade) where it states them, the spec's facts otherwise.
import type { ContractFacade } from '../contract-facade.ts';
import { AMOUNT_MAXIMUM, CHAIN_IDS, CURRENCIES, TOKENS } from '../facts/fixtures.ts';

export interface CreateRules {
  currencies: string[];
  chains: number[];
  tokens: string[];
  titleMaxLength: number;
  externalIdMaxLength: number;
  externalIdPattern: RegExp;
  sellersMax: number;
  amountMaximum: string;
  /** Where each rule came from, for the report. */
  sources: Record<string, 'contract' | 'spec'>;
}

type Schema = Record<string, unknown> & { properties?: Record<string, Schema>; items?: Schema; enum?: unknown[] };

function prop(schema: Schema | undefined, name: string): Schema | undefined {
  return schema?.properties?.[name];
}

/** Follows the first branch of anyOf/oneOf (e.g. `string | null`) to the non-null schema. */
function nonNull(schema: Schema | undefined): Schema | undefined {
  const branches = (schema?.anyOf ?? schema?.oneOf) as Schema[] | undefined;
  if (!branches) return schema;
  return branches.find((b) => b.type !== 'null') ?? schema;
}

export function deriveCreateRules(contract: ContractFacade): CreateRules {
  let schema: Schema | undefined;
  try {
    schema = contract.createPaymentSchema() as Schema;
  } catch {
    schema = undefined;
  }
  const sources: CreateRules['sources'] = {};
  function pick<T>(name: string, fromContract: T | undefined, fallback: T): T {
    sources[name] = fromContract !== undefined ? 'contract' : 'spec';
    return fromContract ?? fallback;
  }
  const title = nonNull(prop(schema, 'title'));
  const externalId = nonNull(prop(schema, 'externalId'));
  const sellers = nonNull(prop(schema, 'sellers'));
  const currency = nonNull(prop(schema, 'currency'));
  const chains = nonNull(prop(schema, 'acceptedChains'))?.items;
  const tokens = nonNull(prop(schema, 'acceptedTokens'))?.items;
  const pattern = typeof externalId?.pattern === 'string' ? new RegExp(externalId.pattern) : undefined;
  return {
    currencies: pick(
      'currencies',
      currency?.enum as string[] | undefined,
      CURRENCIES.map((c) => c.code),
    ),
    chains: pick('chains', chains?.enum as number[] | undefined, CHAIN_IDS),
    tokens: pick('tokens', tokens?.enum as string[] | undefined, TOKENS),
    titleMaxLength: pick('titleMaxLength', title?.maxLength as number | undefined, 255),
    externalIdMaxLength: pick('externalIdMaxLength', externalId?.maxLength as number | undefined, 36),
    externalIdPattern: pick('externalIdPattern', pattern, /^[A-Za-z0-9._-]{1,36}$/),
    sellersMax: pick('sellersMax', sellers?.maxItems as number | undefined, 5),
    amountMaximum: AMOUNT_MAXIMUM,
    sources,
  };
}
