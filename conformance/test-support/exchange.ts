// A recorded exchange (http/recorder.ts) made by hand for a test: a GET answered 200 with an empty body at the epoch,
// with what the test cares about given.
import type { Exchange } from '../http/recorder.ts';

export function recordedExchange(fields: Partial<Exchange>): Exchange {
  return {
    id: 1,
    checkId: 'selftest',
    target: 'service',
    method: 'GET',
    url: 'http://127.0.0.1:1/',
    requestHeaders: {},
    credential: { kind: 'none' },
    requestBody: undefined,
    status: 200,
    responseHeaders: {},
    responseBody: '',
    durationMs: 1,
    transportError: null,
    startedAt: new Date(0).toISOString(),
    ...fields,
  };
}
