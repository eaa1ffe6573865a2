// Random valid create requests (every currency, optional fields, sellers) are accepted: 201 with
// exactly the create view, ACTIVE, fields echoed, documented defaults applied, and the payment is
// then retrievable with the same values.
import type { CheckContext } from '../../context.ts';
import { deriveCreateRules } from '../../generators/create-rules.ts';
import { materialize, validCreateCase, type CreateCase } from '../../generators/create-body.ts';
import { acceptedAmount } from '../../support/amounts.ts';
import { RequirementError } from '../../errors.ts';
import { defineCheck } from '../../registry.ts';
import { CHAIN_IDS, TOKENS } from '../../facts/fixtures.ts';
import { toScale } from '../../facts/decimal.ts';
import { CREATE_VIEW_FIELDS, createPayment, getPayment } from '../../support/payments.ts';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const HOUR = 3_600_000;

function isHttpUrl(value: unknown): boolean {
  if (typeof value !== 'string') return false;
  try {
    const url = new URL(value);
    return url.protocol === 'http:' || url.protocol === 'https:';
  } catch {
    return false;
  }
}

function fail(requirement: string, title: string, message: string, exchange?: import('../../http/recorder.ts').Exchange): never {
  throw new RequirementError(requirement, title, message, exchange);
}

export const createValidRequests = defineCheck({
  id: 'create.valid-requests',
  title: 'Random valid create requests get 201 with the create view, echoed fields and documented defaults',
  requirements: [
    'PAY-CREATE-RESPONSE-201',
    'PAY-STATE-CREATE-TO-ACTIVE',
    'PAY-CREATE-VIEW-FIELDS',
    'PAY-CREATE-ACCEPTED-CHAINS-DEFAULT',
    'PAY-CREATE-ACCEPTED-TOKENS-DEFAULT',
    'PAY-CREATE-EXPIRES-AT-DEFAULT',
    'PAY-FIELD-PAYMENT-URL',
    'PAY-FIELD-ID',
    'PAY-GET-RESPONSE-200',
    'PAY-FIELD-AMOUNT',
    'PAY-ACCEPTED-STORED-AS-REQUESTED',
    'PAY-AMOUNT-ECHO',
    'PAY-CREATE-VIEW-NULLS',
    'FMT-TIMESTAMP-MILLIS-Z',
    // The generator sends amount and currency with any subset of the optional fields (none to all);
    // every such body must be a 201.
    'PAY-STATE-INITIAL-ACTIVE',
    'PAY-URL-IN-CREATE',
    'PAY-CREATE-VIEW-OPTIONAL-NULL',
    'PAY-GET-PATH-ID',
    'PAY-CREATE-OPTIONAL-FIELDS',
  ],
  level: 'documented',
  needs: [],
  tags: ['property', 'validation'],
  premises: ['payments.minimum-amounts'],
  async run(ctx: CheckContext) {
    const rules = deriveCreateRules(ctx.contract);
    const minimums = await ctx.premise('payments.minimum-amounts');
    // The defaults (acceptedChains, acceptedTokens, expiresAt) are judged on a body that leaves the field out. The
    // generator leaves each out in about one case of six, so with 20 cases some seeds never did (2.6 % of them: the
    // self-test's random seed failed now and then): a body with amount and currency alone is judged after the
    // property whenever the generated ones did not leave every default to the implementation.
    const defaulted = { chains: false, tokens: false, expiresAt: false };
    const judgeCase = async (createCase: CreateCase) => {
      const body = materialize(createCase, ctx.clock.now());
      defaulted.chains ||= body.acceptedChains === undefined;
      defaulted.tokens ||= body.acceptedTokens === undefined;
      defaulted.expiresAt ||= body.expiresAt === undefined;
      const created = await createPayment(ctx.api, body);
      const x = created.exchange;
      if (created.status !== 201)
        fail('PAY-CREATE-RESPONSE-201', 'Valid create refused', `expected 201, got ${created.status}: ${created.text.slice(0, 300)}`, x);
      const p = created.payment;
      if (p.status !== 'ACTIVE') fail('PAY-STATE-CREATE-TO-ACTIVE', 'New payment is not ACTIVE', `status ${p.status}`, x);
      if (!UUID.test(String(p.id))) fail('PAY-FIELD-ID', 'Payment id is not a UUID', `id ${JSON.stringify(p.id)}`, x);
      const keys = Object.keys(p).sort();
      const extra = keys.filter((k) => !(CREATE_VIEW_FIELDS as readonly string[]).includes(k));
      const missing = CREATE_VIEW_FIELDS.filter((k) => !['title', 'externalId', 'sellers'].includes(k) && !(k in p));
      if (extra.length || missing.length)
        fail(
          'PAY-CREATE-VIEW-FIELDS',
          'Create response is not the create view',
          `extra fields [${extra.join(', ')}], missing [${missing.join(', ')}]`,
          x,
        );
      if (!isHttpUrl(p.paymentUrl))
        fail('PAY-URL-IN-CREATE', 'Create response has no absolute http(s) paymentUrl', `paymentUrl ${JSON.stringify(p.paymentUrl)}`, x);
      if (!String(p.paymentUrl).endsWith(`/p/${p.id}`))
        fail('PAY-FIELD-PAYMENT-URL', 'paymentUrl is not {pay_url}/p/<id>', `paymentUrl ${p.paymentUrl} for id ${p.id}`, x);
      if (p.currency !== body.currency || toScale(String(p.amount), 2) !== toScale(body.amount, 2)) {
        fail('PAY-FIELD-AMOUNT', 'Amount or currency not echoed', `sent ${body.amount} ${body.currency}, got ${p.amount} ${p.currency}`, x);
      }
      // Optional fields the request left out are absent or null in the create view, never another value.
      for (const field of ['title', 'externalId', 'sellers'] as const) {
        const value = (p as unknown as Record<string, unknown>)[field];
        if (body[field] === undefined && value !== undefined && value !== null) {
          fail(
            'PAY-CREATE-VIEW-OPTIONAL-NULL',
            `Create view sets ${field} the request did not send`,
            `${field} ${JSON.stringify(value)}`,
            x,
          );
        }
      }
      if ((body.title ?? null) !== (p.title ?? null))
        fail('PAY-CREATE-RESPONSE-201', 'title not echoed', `sent ${JSON.stringify(body.title)}, got ${JSON.stringify(p.title)}`, x);
      if ((body.externalId ?? null) !== (p.externalId ?? null))
        fail('PAY-CREATE-RESPONSE-201', 'externalId not echoed', `sent ${body.externalId}, got ${p.externalId}`, x);
      const chains = body.acceptedChains ?? CHAIN_IDS;
      if (JSON.stringify([...p.acceptedChains].sort()) !== JSON.stringify([...chains].sort())) {
        fail(
          body.acceptedChains ? 'PAY-ACCEPTED-STORED-AS-REQUESTED' : 'PAY-CREATE-ACCEPTED-CHAINS-DEFAULT',
          'acceptedChains not as requested or defaulted',
          `expected ${JSON.stringify(chains)}, got ${JSON.stringify(p.acceptedChains)}`,
          x,
        );
      }
      const tokens = body.acceptedTokens ?? TOKENS;
      if (JSON.stringify([...p.acceptedTokens].sort()) !== JSON.stringify([...tokens].sort())) {
        fail(
          body.acceptedTokens ? 'PAY-ACCEPTED-STORED-AS-REQUESTED' : 'PAY-CREATE-ACCEPTED-TOKENS-DEFAULT',
          'acceptedTokens not as requested or defaulted',
          `expected ${JSON.stringify(tokens)}, got ${JSON.stringify(p.acceptedTokens)}`,
          x,
        );
      }
      const expiresAt = Date.parse(p.expiresAt);
      if (body.expiresAt) {
        if (expiresAt !== Date.parse(body.expiresAt))
          fail('PAY-CREATE-RESPONSE-201', 'expiresAt not as requested', `sent ${body.expiresAt}, got ${p.expiresAt}`, x);
      } else if (Math.abs(expiresAt - Date.parse(p.createdAt) - HOUR) > 2_000) {
        fail(
          'PAY-CREATE-EXPIRES-AT-DEFAULT',
          'Default expiresAt is not 1 hour after creation',
          `createdAt ${p.createdAt}, expiresAt ${p.expiresAt}`,
          x,
        );
      }
      // Documented checks first; assumed presentation choices last, so they only decide when all else holds.
      for (const field of ['createdAt', 'expiresAt'] as const) {
        if (!/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/.test(String(p[field])))
          fail('FMT-TIMESTAMP-MILLIS-Z', `${field} is not ISO 8601 UTC with milliseconds and Z`, `${field} ${p[field]}`, x);
      }
      const fetched = await getPayment(ctx.api, p.id);
      if (fetched.status !== 200)
        fail('PAY-GET-RESPONSE-200', 'Created payment cannot be retrieved', `GET answered ${fetched.status}`, fetched.exchange);
      if (fetched.payment.id !== p.id)
        fail(
          'PAY-GET-PATH-ID',
          'GET /v1/payments/{id} answers another payment',
          `asked for ${p.id}, got ${JSON.stringify(fetched.payment.id)}`,
          fetched.exchange,
        );
      for (const field of CREATE_VIEW_FIELDS) {
        const a = JSON.stringify((p as unknown as Record<string, unknown>)[field] ?? null);
        const b = JSON.stringify((fetched.payment as unknown as Record<string, unknown>)[field] ?? null);
        if (a !== b) fail('PAY-GET-RESPONSE-200', `GET shows a different ${field} than create`, `create ${a}, GET ${b}`, fetched.exchange);
      }
      if (p.amount !== body.amount)
        fail('PAY-AMOUNT-ECHO', 'amount is not echoed exactly as sent', `sent "${body.amount}", got "${p.amount}"`, x);
      const absent = (['title', 'externalId', 'sellers'] as const).filter((k) => !(k in p));
      if (absent.length)
        fail('PAY-CREATE-VIEW-NULLS', 'Create view omits optional keys instead of null', `absent: ${absent.join(', ')}`, x);
      // Every rule above held for this body; the defaults only when the body left the field out.
      ctx.judged(
        'PAY-CREATE-RESPONSE-201',
        'PAY-STATE-CREATE-TO-ACTIVE',
        'PAY-STATE-INITIAL-ACTIVE',
        'PAY-FIELD-ID',
        'PAY-CREATE-VIEW-FIELDS',
        'PAY-URL-IN-CREATE',
        'PAY-FIELD-PAYMENT-URL',
        'PAY-FIELD-AMOUNT',
        'PAY-CREATE-VIEW-OPTIONAL-NULL',
        'FMT-TIMESTAMP-MILLIS-Z',
        'PAY-GET-RESPONSE-200',
        'PAY-GET-PATH-ID',
        'PAY-AMOUNT-ECHO',
        'PAY-CREATE-VIEW-NULLS',
        'PAY-CREATE-OPTIONAL-FIELDS',
        body.acceptedChains || body.acceptedTokens ? 'PAY-ACCEPTED-STORED-AS-REQUESTED' : 'PAY-CREATE-OPTIONAL-FIELDS',
        body.acceptedChains ? 'PAY-ACCEPTED-STORED-AS-REQUESTED' : 'PAY-CREATE-ACCEPTED-CHAINS-DEFAULT',
        body.acceptedTokens ? 'PAY-ACCEPTED-STORED-AS-REQUESTED' : 'PAY-CREATE-ACCEPTED-TOKENS-DEFAULT',
        body.expiresAt ? 'PAY-CREATE-RESPONSE-201' : 'PAY-CREATE-EXPIRES-AT-DEFAULT',
      );
    };
    const findings = ctx.findings.length;
    await ctx.property('accepted', validCreateCase(rules, { optionalFields: true, minimums }), judgeCase);
    // After a counterexample the check has failed already: no second finding from the same fault.
    if (ctx.findings.length === findings && !(defaulted.chains && defaulted.tokens && defaulted.expiresAt)) {
      const currency = rules.currencies.find((code) => minimums[code] !== null) ?? 'USD';
      ctx.addCases();
      await judgeCase({ body: { amount: await acceptedAmount(ctx, currency, '25'), currency } });
    }
  },
});
