import { defineBridge } from '@vigie/kernel';
import { AdminPolicy } from './admin-policy.js';
import { ApiKeyRepository } from './api-key-repository.js';
import { ProviderChain } from './provider-chain.js';
import { ApiKeyProvider } from './providers/api-keys.js';
import { LocalUserProvider } from './providers/local-users.js';
import { Sessions } from './sessions.js';
import { UserAdministration } from './user-administration.js';
import { UserRepository } from './user-repository.js';

/** The auth feature's class graph (tsyringe) and what awilix sees of it. */
export const authBridge = defineBridge({
  singletons: [UserRepository, ApiKeyRepository, Sessions, LocalUserProvider, ApiKeyProvider, ProviderChain, UserAdministration, AdminPolicy],
  exports: {
    providerChain: ProviderChain,
    userAdministration: UserAdministration,
    userRepository: UserRepository,
    localUserProvider: LocalUserProvider,
    apiKeyProvider: ApiKeyProvider,
    sessions: Sessions,
    adminPolicy: AdminPolicy,
  },
});
