import { inject, injectable } from 'tsyringe';
import { injectRef } from '@vigie/kernel';
import type { AuthProvider, ProviderOutcome, SignOn } from '@vigie/auth';
import { saml2Config, type Saml2Config } from './config.js';
import { Saml2Service } from './saml2-service.js';
import { saml2Paths } from './setup.js';

/**
 * `saml2`: a browser sign-on through the identity provider. Switched on by `[webservices] saml2 = 1` as the spec
 * says; naming it in `[auth] providers` is not enough. It authenticates no request itself: the session does.
 */
@injectable()
export class Saml2Provider implements AuthProvider {
  readonly name = 'saml2';
  readonly active: boolean;
  readonly signOn: SignOn;

  constructor(@injectRef(saml2Config.ref) config: Saml2Config, @inject(Saml2Service) service: Saml2Service) {
    this.active = config.saml2;
    this.signOn = {
      loginPath: saml2Paths.login,
      label: async () => (config.saml2 && service.configured() ? 'Sign in with SAML2' : null),
    };
  }

  async authenticate(): Promise<ProviderOutcome> {
    return null;
  }
}
