import { inject, injectable } from 'tsyringe';
import type { AuthProvider, ProviderOutcome, SignOn } from '@vigie/auth';
import { OidcConfigRepository } from './oidc-config-repository.js';
import { OidcLogin, oidcPaths } from './oidc-login.js';

/**
 * `oidc`: a browser sign-on through an OpenID provider. It authenticates no request by itself — the session opened
 * after a verified ID token does —, adds its button to the login page while the record is enabled, and sends the
 * browser to the provider's end-session endpoint at logout.
 */
@injectable()
export class OidcProvider implements AuthProvider {
  readonly name = 'oidc';
  readonly signOn: SignOn;

  constructor(@inject(OidcConfigRepository) records: OidcConfigRepository, @inject(OidcLogin) login: OidcLogin) {
    this.signOn = {
      loginPath: oidcPaths.login,
      label: async () => {
        const record = await records.get();
        return record?.enable ? record.title : null;
      },
      signOutUrl: (ctx) => login.signOutUrl(ctx),
    };
  }

  async authenticate(): Promise<ProviderOutcome> {
    return null;
  }
}
