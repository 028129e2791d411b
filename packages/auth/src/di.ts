import { defineBridge, provide } from '@vigie/kernel';
import { AccessResolver } from './access.js';
import { ApiKeyRepository } from './api-key-repository.js';
import { ProviderChain } from './provider-chain.js';
import { ApiKeyProvider } from './providers/api-keys.js';
import { LocalUserProvider } from './providers/local-users.js';
import { Sessions } from './sessions.js';
import { UserAdministration } from './user-administration.js';
import { IdentityRecords } from './identity-record-store.js';
import { identityRecordsRef, providerChainRef, sessionsRef, userAdministrationRef } from './refs.js';
import { UserRepository } from './user-repository.js';
import { RoleCatalog, RoleRepository } from './roles.js';
import { RoleAdministration } from './role-administration.js';

/** The auth feature's class graph (tsyringe); the feature resolves its classes, dependents see its exports. */
export const authBridge = defineBridge({
  singletons: [IdentityRecords, UserRepository, ApiKeyRepository, RoleRepository, RoleCatalog, RoleAdministration, AccessResolver, Sessions, LocalUserProvider, ApiKeyProvider, ProviderChain, UserAdministration],
  exports: [
    provide(providerChainRef, ProviderChain),
    provide(userAdministrationRef, UserAdministration),
    provide(sessionsRef, Sessions),
    provide(identityRecordsRef, IdentityRecords),
  ],
});
