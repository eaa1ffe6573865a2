// Binds the ContractFacade to the contract modules: contract/validator.ts for responses, webhook
// payloads and the create-request schema (both loaded once per run).
import { loadContract } from '@stablepay/contract/validator';
import type { ContractFacade, ContractViolation } from './contract-facade.ts';

type Json = Record<string, unknown>;

function child(node: unknown, ...keys: string[]): unknown {
  let current = node;
  for (const key of keys) current = current && typeof current === 'object' ? (current as Json)[key] : undefined;
  return current;
}

export async function loadContractFacade(): Promise<ContractFacade> {
  const contract = await loadContract('service');
  const toFacade = (violations: ReturnType<typeof contract.validateResponse>): ContractViolation[] =>
    violations.map((v) => ({ kind: v.kind, message: v.message, level: v.level, requirements: v.requirements }));
  return {
    available: true,
    operationOf: (method, path) => {
      const match = contract.findOperation(method, path);
      return match ? `${match.method.toUpperCase()} ${match.pathTemplate}` : null;
    },
    validateResponse: (response) => toFacade(contract.validateResponse(response)),
    validateWebhook: (eventType, payload, headers) => toFacade(contract.validateWebhook(eventType, payload, headers)),
    createPaymentSchema: () => {
      const schema = child(contract.document, 'paths', '/v1/payments', 'post', 'requestBody', 'content', 'application/json', 'schema');
      if (!schema || typeof schema !== 'object') throw new Error('openapi.yaml has no create-payment request schema');
      return schema as Json;
    },
  };
}
