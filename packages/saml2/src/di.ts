import { defineBridge } from '@vigie/kernel';
import { Saml2Provider } from './saml2-provider.js';
import { Saml2Service } from './saml2-service.js';
import { userAdministrationRef } from '@vigie/auth';

/** The SAML2 feature's class graph (tsyringe); the feature resolves its classes, dependents see its exports. */
export const saml2Bridge = defineBridge({
  imports: [userAdministrationRef],
  singletons: [Saml2Service, Saml2Provider],
});
