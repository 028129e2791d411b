import { defineBridge } from '@vigie/kernel';
import { Saml2Provider } from './saml2-provider.js';
import { Saml2Service } from './saml2-service.js';
import { Saml2Tokens } from './tokens.js';

/** The SAML2 feature's class graph (tsyringe) and what awilix sees of it. */
export const saml2Bridge = defineBridge({
  imports: { installDir: Saml2Tokens.InstallDir, userAdministration: Saml2Tokens.UserAdministration },
  singletons: [Saml2Service, Saml2Provider],
  exports: { saml2Service: Saml2Service, saml2Provider: Saml2Provider },
});
