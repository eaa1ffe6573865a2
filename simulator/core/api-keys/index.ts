// Authentication: pk_ keys stored hashed, IP whitelists, expiry, revocation, /v1/auth/api-keys.
export * from './api-key.ts';
export { ApiKeyStore, MAX_ACTIVE_KEYS } from './api-key-store.ts';
export type { NewKeyInput } from './api-key-store.ts';
export { compileWhitelist, ipAllowed, whitelistEntryProblem } from './ip-whitelist.ts';
export { validateApiKeyInput } from './validate-api-key.ts';
