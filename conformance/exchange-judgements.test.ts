// Judgements of recorded responses are computed once, in the background as exchanges are recorded, and are the same
// as when computed at the end.
import { describe, expect, it } from 'vitest';
import type { ContractFacade, ContractViolation, ResponseToValidate } from './contract-facade.ts';
import { ExchangeJudgements } from './exchange-judgements.ts';
import { Recorder } from './http/recorder.ts';
import { recordedExchange } from './test-support/exchange.ts';

/** A contract that finds one violation in every 404 and counts what it was asked. */
function countingContract(): ContractFacade & { asked: ResponseToValidate[] } {
  const asked: ResponseToValidate[] = [];
  const violation: ContractViolation = { kind: 'status', level: 'documented', message: 'undocumented status', requirements: [] };
  return {
    asked,
    available: true,
    operationOf: () => null,
    validateResponse: (response) => {
      asked.push(response);
      return response.status === 404 ? [violation] : [];
    },
    validateWebhook: () => [],
    createPaymentSchema: () => ({}),
  };
}

const turn = () => new Promise<void>((resolve) => setImmediate(resolve));

/** A recorder that tells fresh judgements of what it records, and the counting contract (given to them unless `later`). */
function judging(options: { later?: boolean } = {}) {
  const contract = countingContract();
  const judgements = new ExchangeJudgements();
  const recorder = new Recorder();
  recorder.onRecorded = judgements.recorded;
  if (!options.later) judgements.useContract(contract);
  return { contract, judgements, recorder };
}

function record(recorder: Recorder, fields: Parameters<typeof recordedExchange>[0]) {
  const { id: _id, checkId: _check, ...exchange } = recordedExchange(fields);
  return recorder.add(exchange, 'some.check');
}

describe('ExchangeJudgements', () => {
  it('judges each answered exchange in the background, once, with what a judgement at the end would find', async () => {
    const { contract, judgements, recorder } = judging();
    const ok = record(recorder, { url: 'http://127.0.0.1:1/v1/payments/a', responseBody: '{"id":"a"}' });
    const missing = record(recorder, { url: 'http://127.0.0.1:1/v1/payments/b', status: 404, responseBody: 'not found' });
    expect(contract.asked).toHaveLength(0);
    await turn();
    await turn();
    expect(contract.asked.map((r) => [r.path, r.status, r.body])).toEqual([
      ['/v1/payments/a', 200, { id: 'a' }],
      ['/v1/payments/b', 404, 'not found'],
    ]);
    // Asked again at the end: the background's results, nothing validated twice.
    expect(judgements.contractViolations(ok, contract)).toEqual([]);
    expect(judgements.contractViolations(missing, contract).map((v) => v.message)).toEqual(['undocumented status']);
    expect(judgements.body(ok)).toEqual({ kind: 'json', value: { id: 'a' } });
    expect(contract.asked).toHaveLength(2);
  });

  it("walks a JSON body's fields once, depth first with their pointers; another body has none", () => {
    const judgements = new ExchangeJudgements();
    const list = recordedExchange({ responseBody: '{"data":[{"id":"a","sellers":[{"address":"0x1"}]}],"hasMore":false}' });
    expect(judgements.fields(list)).toEqual([
      { key: 'data', value: [{ id: 'a', sellers: [{ address: '0x1' }] }], pointer: '/data' },
      { key: 'id', value: 'a', pointer: '/data/0/id' },
      { key: 'sellers', value: [{ address: '0x1' }], pointer: '/data/0/sellers' },
      { key: 'address', value: '0x1', pointer: '/data/0/sellers/0/address' },
      { key: 'hasMore', value: false, pointer: '/hasMore' },
    ]);
    expect(judgements.fields(list)).toBe(judgements.fields(list));
    expect(judgements.fields(recordedExchange({ responseBody: 'id,amount\n' }))).toEqual([]);
  });

  it('leaves out exchanges without a whole answer, and does nothing in the background once stopped', async () => {
    const { contract, judgements, recorder } = judging();
    record(recorder, { status: null, transportError: 'ECONNRESET' });
    record(recorder, { target: 'control' });
    await turn();
    expect(contract.asked).toHaveLength(0);
    judgements.stop();
    const late = record(recorder, { url: 'http://127.0.0.1:1/v1/payments' });
    await turn();
    expect(contract.asked).toHaveLength(0);
    // Still answered on demand, the same way.
    expect(judgements.contractViolations(late, contract)).toEqual([]);
    expect(contract.asked).toHaveLength(1);
  });

  it('waits for the contract: exchanges recorded before it is loaded are judged once it is', async () => {
    const { contract, judgements, recorder } = judging({ later: true });
    record(recorder, { url: 'http://127.0.0.1:1/v1/payments' });
    await turn();
    expect(contract.asked).toHaveLength(0);
    judgements.useContract(contract);
    await turn();
    expect(contract.asked).toHaveLength(1);
  });
});
