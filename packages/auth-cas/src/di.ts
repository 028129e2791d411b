import { defineBridge } from '@vigie/kernel';
import { CasClient } from './cas-client.js';
import { CasConfigRepository } from './cas-config-repository.js';
import { CasLogin } from './cas-login.js';
import { CasProvider } from './cas-provider.js';
import { identityRecordsRef, providerChainRef, userAdministrationRef } from '@vigie/auth';

/** The CAS feature's class graph (tsyringe); the feature resolves its classes, dependents see its exports. */
export const casBridge = defineBridge({
  imports: [userAdministrationRef, providerChainRef, identityRecordsRef],
  singletons: [CasConfigRepository, CasClient, CasLogin, CasProvider],
});
