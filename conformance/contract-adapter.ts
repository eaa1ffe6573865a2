// Binds the ContractFacade to the contract modules (contract/validator.ts). While they are not
// loadable the facade reports itself unavailable, and checks that need it are not exercised.
import { NotExercisedSignal } from './errors.ts';
import type { ContractFacade } from './contract-facade.ts';

export async function loadContractFacade(): Promise<ContractFacade> {
  const specifier = '../contract/validator.ts';
  try {
    await import(specifier);
  } catch (error) {
    const reason = `contract validator unavailable: ${(error as Error).message.split('\n')[0]}`;
    const unavailable = (): never => {
      throw new NotExercisedSignal(reason);
    };
    return { available: false, operationOf: () => null, validateResponse: unavailable, validateWebhook: unavailable, createPaymentSchema: unavailable };
  }
  throw new Error('not wired yet');
}
