import { defineBridge, provide } from '@vigie/kernel';
import { AdminPolicy } from './admin-policy.js';
import { ApiKeyRepository } from './api-key-repository.js';
import { ProviderChain } from './provider-chain.js';
import { ApiKeyProvider } from './providers/api-keys.js';
import { LocalUserProvider } from './providers/local-users.js';
import { Sessions } from './sessions.js';
import { UserAdministration } from './user-administration.js';
import { IdentityRecords } from './identity-record-store.js';
import { adminPolicyRef, identityRecordsRef, providerChainRef, sessionsRef, userAdministrationRef } from './refs.js';
import { UserRepository } from './user-repository.js';

/** The auth feature's class graph (tsyringe); the feature resolves its classes, dependents see its exports. */
export const authBridge = defineBridge({
  singletons: [IdentityRecords, UserRepository, ApiKeyRepository, Sessions, LocalUserProvider, ApiKeyProvider, ProviderChain, UserAdministration, AdminPolicy],
  exports: [
    provide(providerChainRef, ProviderChain),
    provide(userAdministrationRef, UserAdministration),
    provide(sessionsRef, Sessions),
    provide(adminPolicyRef, AdminPolicy),
    provide(identityRecordsRef, IdentityRecords),
  ],
});
