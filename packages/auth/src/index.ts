export { authFeature, printGeneratedPassword } from './feature.js';
export { authConfigSchema, providerNames, type AuthConfig } from './config.js';
export { authProvidersPoint } from './tokens.js';
export type { AuthProvider, AuthRequest, ProviderOutcome } from './provider.js';
export { UserAdministration, minimumPasswordLength } from './user-administration.js';
export { UserRepository, publicUser, type UserRecord, type PublicUser } from './user-repository.js';
export type { ApiKeyRecord } from './api-key-repository.js';
export { hashPassword, verifyPassword } from './password.js';
