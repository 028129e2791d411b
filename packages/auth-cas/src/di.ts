import { defineBridge } from '@vigie/kernel';
import { CasClient } from './cas-client.js';
import { CasConfigRepository } from './cas-config-repository.js';
import { CasLogin } from './cas-login.js';
import { CasProvider } from './cas-provider.js';
import { CasTokens } from './tokens.js';

/** The CAS feature's class graph (tsyringe) and what awilix sees of it. */
export const casBridge = defineBridge({
  imports: { userAdministration: CasTokens.UserAdministration, providerChain: CasTokens.ProviderChain },
  singletons: [CasConfigRepository, CasClient, CasLogin, CasProvider],
  exports: { casConfigRepository: CasConfigRepository, casLogin: CasLogin, casProvider: CasProvider },
});
