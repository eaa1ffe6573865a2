// Served without a key: the landing page, the contract (YAML and JSON) and the rendered reference,
// plus the landing page's demo payment (a POST: it creates state).
import { Hono } from 'hono';
import { packageVersion } from '@stablepay/contract/package-root';
import { ApiError } from '../http/errors.ts';
import type { PaymentService } from '../../core/payments/index.ts';
import { docsHtml, openapiJson, openapiYaml } from './contract-files.ts';
import { landingPage } from './landing-page.ts';

export interface ReferenceDeps {
  payments: PaymentService;
  /** Whose payment the demo button makes: the default merchant's. */
  demoMerchantId: () => string;
  payUrl: string;
  controlEnabled: boolean;
}

export function referenceRoutes(deps: ReferenceDeps): Hono {
  const app = new Hono();
  app.get('/', (c) => c.html(landingPage({ version: packageVersion, controlEnabled: deps.controlEnabled })));
  app.get('/openapi.yaml', (c) => c.body(openapiYaml(), 200, { 'content-type': 'application/yaml; charset=utf-8' }));
  app.get('/openapi.json', async (c) => c.body(await openapiJson(), 200, { 'content-type': 'application/json; charset=utf-8' }));
  app.get('/docs', (c) => {
    const page = docsHtml();
    if (page === undefined) throw new ApiError(404, 'The API reference is not built: run npm run build');
    return c.html(page);
  });
  app.post('/demo-payment', (c) => {
    const payment = deps.payments.create(deps.demoMerchantId(), { amount: '25.00', currency: 'USD', title: 'Demo order' }, 'api');
    return c.redirect(`${deps.payUrl}/p/${payment.id}`, 303);
  });
  return app;
}
