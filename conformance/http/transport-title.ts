// The title of a finding about a request that got no usable answer, by what went wrong: one wording for the runner
// (a check that ended on it) and for the context (a property that met it).
import type { TransportFailure } from './client.ts';

const NO_ANSWER_TITLE: Record<TransportFailure, string> = {
  timeout: 'The implementation did not answer within the request deadline',
  'too-large': 'The response body is larger than the suite reads',
  closed: 'The implementation closed the connection without an answer',
  refused: 'The implementation refused the connection',
  'not-http': 'The implementation did not answer in HTTP',
  aborted: 'The request was aborted',
  other: 'The implementation did not answer',
};

export function transportTitle(kind: TransportFailure): string {
  return NO_ANSWER_TITLE[kind];
}
