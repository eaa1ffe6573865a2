// Serves the suite's never-settling test page (every step works, the wallet sends, no money moves and the page never
// completes) until Ctrl-C, and prints its origin: point a target's payment URLs at it to see the suite fail the run.
//   npx tsx conformance/customer/test-pages/serve-never-settling-page.ts
//   stablepay conformance --no-control --target-command "exec node bin/stablepay.js start --no-control --no-demo-payment --pay-url <origin>"
import { startCheckoutPages } from './checkout-pages.ts';

const pages = await startCheckoutPages({ fallback: 'never-settles' });
process.stdout.write(`${pages.origin}\n`);
const stop = () => void pages.close().then(() => process.exit(0));
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
