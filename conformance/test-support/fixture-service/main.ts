// The fixture service as a black-box target (`--target-command "exec npx tsx .../main.ts"`): it reads what the suite
// gives every target (PORT, STABLEPAY_API_KEY, STABLEPAY_SECOND_API_KEY, STABLEPAY_PUBLIC_URL) and its own choices
// from FIXTURE_CHOICES (JSON), FIXTURE_FAULTS (comma-separated) and FIXTURE_CONTROL=1. Its clock is the process's, so
// libfaketime moves it.
import type { FixtureChoices, FixtureFault } from './choices.ts';
import { startFixtureService } from './server.ts';

const env = process.env;
const running = await startFixtureService({
  port: Number(env.PORT ?? 0),
  ...(env.STABLEPAY_API_KEY ? { apiKey: env.STABLEPAY_API_KEY } : {}),
  ...(env.STABLEPAY_SECOND_API_KEY ? { secondApiKey: env.STABLEPAY_SECOND_API_KEY } : {}),
  ...(env.STABLEPAY_PUBLIC_URL ? { publicUrl: env.STABLEPAY_PUBLIC_URL } : {}),
  choices: env.FIXTURE_CHOICES ? (JSON.parse(env.FIXTURE_CHOICES) as Partial<FixtureChoices>) : {},
  faults: (env.FIXTURE_FAULTS ?? '').split(',').filter(Boolean) as FixtureFault[],
  control: env.FIXTURE_CONTROL === '1',
});
process.stdout.write(`fixture service listening on ${running.url}\n`);
const stop = () => void running.close().then(() => process.exit(0));
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
