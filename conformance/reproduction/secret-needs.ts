// Which secret a reproduction reads from which shell variable, and where the person running it finds that secret.
// The run's own secrets (the keys it was given, its control token, -H values) are the person's: a line that needs
// only those runs as printed once they are exported. A secret the suite made during the run (a merchant's key from
// the control API, a key it created, a webhook secret it was shown) is never revealed, so no line can use it: the
// replay command makes its own instead.
import { API_KEY_ENV, CONTROL_TOKEN_ENV } from '../defaults.ts';
import type { SecretNeed } from '../types.ts';

export const SECOND_API_KEY_ENV = 'STABLEPAY_SECOND_API_KEY';
const HEADER_PREFIX = 'STABLEPAY_HEADER_';

/** Where the person finds the value of one of the run's own secrets; null for a secret the suite made itself. */
export function ownSecretWhere(variable: string): string | null {
  if (variable === API_KEY_ENV)
    return 'the API key you gave the run (--api-key or STABLEPAY_API_KEY; `stablepay start` prints its default key)';
  if (variable === CONTROL_TOKEN_ENV)
    return "the control API's token the implementation was started with (`stablepay start --control-token` or STABLEPAY_CONTROL_TOKEN)";
  if (variable === SECOND_API_KEY_ENV) return "the second merchant's key you gave the run (--second-api-key)";
  if (variable.startsWith(HEADER_PREFIX)) return 'the value of the header you gave the run with -H (the variable names the header)';
  return null;
}

/** The shell variables a curl line reads (`$NAME` or `${NAME}`), in order, once each. */
export function variablesIn(command: string): string[] {
  return [...new Set([...command.matchAll(/\$\{?([A-Z][A-Z0-9_]*)\}?/g)].map((match) => match[1]!))];
}

export interface CurlVariables {
  /** The run's own secrets the line reads: export them and it runs. */
  needs: SecretNeed[];
  /** Secrets the suite made and never revealed: the line shows what was sent but cannot run as printed. */
  suiteMade: string[];
}

export function curlVariables(command: string): CurlVariables {
  const needs: SecretNeed[] = [];
  const suiteMade: string[] = [];
  for (const variable of variablesIn(command)) {
    const where = ownSecretWhere(variable);
    if (where) needs.push({ variable, where });
    else suiteMade.push(variable);
  }
  return { needs, suiteMade };
}

/**
 * One sentence under a curl line: what to export, or why it does not run as printed and what does. None for other
 * reproductions (a webhook finding's `stablepay replay-delivery` line reads the receiver's URL, no secret).
 */
export function curlNote(command: string): string | null {
  if (!command.startsWith('curl ')) return null;
  const { needs, suiteMade } = curlVariables(command);
  if (suiteMade.length > 0)
    return `as sent: ${suiteMade.join(', ')} ${suiteMade.length === 1 ? 'is' : 'are'} the suite's own and never revealed, so this line does not run as printed; the replay line makes its own and repeats it`;
  if (needs.length > 0)
    return `export ${needs.map((need) => need.variable).join(' and ')} first (${needs.map((need) => `${need.variable}: ${need.where}`).join('; ')})`;
  return null;
}
