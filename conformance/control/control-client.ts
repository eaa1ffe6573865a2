// Client of the control API (conformance/control-api.yaml, DESIGN §3): the provider-state hooks
// that let the suite act as the customer, the chain and time. A control call that does not
// answer as documented makes the check not-exercised (the harness failed, not the service).
import type { ApiKeyWithSecret, ClockAdvanceResult, ClockState, MerchantCreated, TestClock } from '@stablepay/contract/types';
import { NotExercisedSignal } from '../errors.ts';
import { TransportError, type Credential, type HttpClient, type HttpResponse } from '../http/client.ts';
import type { Received } from '../received.ts';

export type { ClockState };

export interface MerchantHandle {
  id: string;
  credential: { key: string; label: string };
}

export class ControlError extends NotExercisedSignal {}

export class ControlClient {
  /** Shared by every client of one run (the run's and each check's own clock): labels stay unique in the reports. */
  private readonly counts: { merchants: number; keys: number };
  /**
   * The run's own test clock (control-api.yaml `POST /clocks`): every merchant the run makes lives on it, and every
   * advance moves it, so the run moves no one else's time. Null when the control API has no test clocks: then the
   * run reads and moves the shared clock.
   */
  testClock: string | null = null;

  constructor(
    readonly http: HttpClient,
    counts?: { merchants: number; keys: number },
  ) {
    this.counts = counts ?? { merchants: 0, keys: 0 };
  }

  /**
   * A client on a test clock of its own (made now), for one check that moves time: its advances and the merchants it
   * creates are on that clock, so no other check's time moves. Null when the run has no test clocks (the control
   * API has none): then moving the clock needs the run alone.
   */
  async onOwnTestClock(): Promise<ControlClient | null> {
    if (this.testClock === null) return null;
    const own = new ControlClient(this.http, this.counts);
    return (await own.useTestClock()) ? own : null;
  }

  /** The answer with one of `statuses` and a JSON object body; anything else is a ControlError naming the call. */
  private async expect(
    response: Promise<HttpResponse>,
    statuses: number[],
    what: string,
  ): Promise<HttpResponse & { json: Record<string, unknown> }> {
    let result: HttpResponse;
    try {
      result = await response;
    } catch (error) {
      // A run that is stopping aborts its requests: that is not the control API's doing.
      if (error instanceof TransportError && error.kind !== 'aborted') throw new ControlError(`control API ${what}: ${error.message}`);
      throw error;
    }
    const call = `${result.exchange.method} ${new URL(result.exchange.url).pathname}`;
    if (!statuses.includes(result.status))
      throw new ControlError(`control API ${what}: ${call} answered ${result.status} ${result.text.slice(0, 200)}`);
    if (typeof result.json !== 'object' || result.json === null || Array.isArray(result.json)) {
      throw new ControlError(
        `control API ${what}: ${call} answered ${result.status} without a JSON object: ${JSON.stringify(result.text.slice(0, 120))}`,
      );
    }
    return result as HttpResponse & { json: Record<string, unknown> };
  }

  async health(): Promise<HttpResponse> {
    return this.http.get('/health', undefined, null);
  }

  /**
   * Makes the run's test clock, when the control API has them (true). Test clocks are our extension of the control
   * API, so any other answer (404 or 405, or one that is not a test clock) means it has none: the run goes on with the
   * shared clock, and `testClockMissing` says why for the run's notes. Only a transport failure is thrown.
   */
  async useTestClock(): Promise<boolean> {
    try {
      const response = await this.expect(this.http.post('/clocks', undefined, null), [200, 201], 'create test clock');
      const clock = withTimestamp(response, 'create test clock') as Partial<TestClock>;
      if (typeof clock.id !== 'string' || !/^[\w-]{1,64}$/.test(clock.id))
        throw new ControlError('control API create test clock: response lacks a usable id');
      this.testClock = clock.id;
      return true;
    } catch (error) {
      if (!(error instanceof ControlError)) throw error;
      this.testClockMissing = error.message;
      return false;
    }
  }

  /** Why the control API has no usable test clocks (set by useTestClock when it returns false). */
  testClockMissing: string | null = null;

  /** The run's clock: its test clock, or the shared one. */
  private get clockPath(): string {
    return this.testClock === null ? '/clock' : `/clocks/${encodeURIComponent(this.testClock)}`;
  }

  async clock(): Promise<ClockState> {
    return withTimestamp(
      await this.expect(this.http.get(this.clockPath, undefined, null), [200], 'read clock'),
      'read clock',
    ) as unknown as ClockState;
  }

  /** Moves the run's virtual time forward; the implementation fires due timers before answering. */
  async advance(ms: number): Promise<ClockAdvanceResult> {
    const response = await this.expect(this.http.post(`${this.clockPath}/advance`, { ms: Math.round(ms) }, null), [200], 'advance clock');
    return withTimestamp(response, 'advance clock') as unknown as ClockAdvanceResult;
  }

  /** Raw transition calls: the model-based test inspects refusals itself. */
  submitRaw(paymentId: string, chainId: number, token: string): Promise<HttpResponse> {
    return this.http.post(`/payments/${paymentId}/submit`, { chainId, token }, null);
  }

  confirmRaw(paymentId: string): Promise<HttpResponse> {
    return this.http.post(`/payments/${paymentId}/confirm`, {}, null);
  }

  failRaw(paymentId: string, failure: { code?: string; source?: string; message?: string } = {}): Promise<HttpResponse> {
    return this.http.post(`/payments/${paymentId}/fail`, failure, null);
  }

  async submit(paymentId: string, chainId: number, token: string): Promise<Record<string, unknown>> {
    return (await this.expect(this.submitRaw(paymentId, chainId, token), [200], 'customer submit')).json as Record<string, unknown>;
  }

  async confirm(paymentId: string): Promise<Record<string, unknown>> {
    return (await this.expect(this.confirmRaw(paymentId), [200], 'chain confirm')).json as Record<string, unknown>;
  }

  async fail(paymentId: string, failure: { code?: string; source?: string; message?: string } = {}): Promise<Record<string, unknown>> {
    return (await this.expect(this.failRaw(paymentId, failure), [200], 'chain fail')).json as Record<string, unknown>;
  }

  /** A fresh merchant with its own API key: isolates a check's payments, list and webhooks. */
  async createMerchant(name: string): Promise<MerchantHandle> {
    const request = this.testClock === null ? { name } : { name, testClock: this.testClock };
    const response = await this.expect(this.http.post('/merchants', request, null), [200, 201], 'create merchant');
    const created = response.json as Received<MerchantCreated>;
    const key = created.apiKey?.key;
    const id = created.merchant?.id;
    if (typeof key !== 'string' || typeof id !== 'string') {
      throw new ControlError('control API create merchant: response lacks merchant.id or apiKey.key');
    }
    const credential = { key, label: `MERCHANT_${++this.counts.merchants}_API_KEY` };
    this.http.options.secrets.add(key, credential.label);
    return { id, credential };
  }

  /** A further key of the merchant behind `owner`; `expiresAt` may be in the past. */
  async createApiKey(
    owner: Credential,
    body: { expiresAt?: string; expiresInDays?: number },
  ): Promise<{ id: string; key: string; label: string }> {
    const response = await this.expect(this.http.post('/api-keys', body, owner), [200, 201], 'create API key');
    const record = response.json as Received<ApiKeyWithSecret>;
    if (typeof record.key !== 'string' || typeof record.id !== 'string') {
      throw new ControlError('control API create API key: response lacks id or key');
    }
    const label = `CONTROL_KEY_${++this.counts.keys}`;
    this.http.options.secrets.add(record.key, label);
    return { id: record.id, key: record.key, label };
  }

  async setRateLimit(limit: number, windowSeconds: number): Promise<HttpResponse> {
    return this.expect(this.http.put('/rate-limit', { limit, windowSeconds }, null), [200], 'set rate limit');
  }
}

/** The clock's answers carry `now`, the implementation's time: checks compute with it, so it must be a timestamp. */
function withTimestamp(response: HttpResponse & { json: Record<string, unknown> }, what: string): Record<string, unknown> {
  const now = response.json.now;
  if (typeof now !== 'string' || Number.isNaN(Date.parse(now))) {
    throw new ControlError(
      `control API ${what}: ${response.exchange.method} ${new URL(response.exchange.url).pathname} answered without a timestamp in "now": ${JSON.stringify(response.text.slice(0, 120))}`,
    );
  }
  return response.json;
}
