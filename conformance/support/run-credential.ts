// The API key the run acts with: the run's own merchant when a control API made one, else the key
// the run was given. Checks that need a further key of "their" merchant ask the control API for
// one owned by this credential, so the given key's merchant gets none.
import type { CheckContext } from '../context.ts';
import type { Credential } from '../http/client.ts';

export function runCredential(ctx: CheckContext): Credential {
  const credential = ctx.api.options.credential;
  return credential && 'key' in credential ? credential : { key: ctx.options.apiKey, label: 'STABLEPAY_API_KEY' };
}
