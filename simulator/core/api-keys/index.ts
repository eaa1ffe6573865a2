// Authentication: pk_ keys stored hashed, IP whitelists, expiry, revocation, /v1/auth/api-keys.
export * from './api-key.ts';
export { ApiKeyStore, MAX_ACTIVE_KEYS } from './api-key-store.ts';
export type { NewKeyInput } from './api-key-store.ts';
export { identify, resolveIdentity } from '../../edge/v1/identify.ts';
export type { Identity, IdentityEnv, IdentifyOptions } from '../../edge/v1/identify.ts';
export { requireAuth } from '../../edge/v1/require-auth.ts';
export type { RequireAuthOptions } from '../../edge/v1/require-auth.ts';
export { compileWhitelist, ipAllowed, whitelistEntryProblem } from './ip-whitelist.ts';
export { validateApiKeyInput } from './validate-api-key.ts';
export { apiKeyRoutes } from '../../edge/v1/api-key-routes.ts';
