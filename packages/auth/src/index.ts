export { authFeature, printGeneratedPassword } from './feature.js';
export { authConfigSchema, providerNames, type AuthConfig } from './config.js';
export { IdentityRecords } from './identity-record-store.js';
export { authProvidersPoint, identityRecordsRef, providerChainRef, sessionsRef, userAdministrationRef, usersChangedEvent } from './refs.js';
export type { AuthProvider, AuthRequest, ProviderOutcome, SignOn } from './provider.js';
export { UserAdministration, minimumPasswordLength } from './user-administration.js';
export { UserRepository, publicUser, type UserRecord, type PublicUser, type UserContact } from './user-repository.js';
export type { ApiKeyRecord } from './api-key-repository.js';
export { Sessions, type SessionRecord } from './sessions.js';
export type { Identity } from './access.js';
export { operatorRole, viewerRole, type Role } from './roles.js';
export { localPath, answerLoginPage } from './routes.js';
export type { ProviderChain } from './provider-chain.js';
export { renderLoginPage, loginErrors, type LoginPageModel } from './login-page.js';
export { defaultPasswordHashCost, hashPassword, verifyPassword } from './password.js';
export {
  objectEnvelope,
  objectEnvelopeSchema,
  maskedSecret,
  baseUrlField,
  identityRecordRoutes,
  type IdentityRecordRoutesSpec,
  type IdentityRecordStore,
} from './identity-records.js';
