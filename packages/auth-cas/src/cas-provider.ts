import { inject, injectable } from 'tsyringe';
import type { AuthProvider, ProviderOutcome, SignOn } from '@vigie/auth';
import { CasConfigRepository } from './cas-config-repository.js';

export const casLoginPath = '/auth/cas/login';

/**
 * `cas` (`<product>.auth.cas`): a browser sign-on. It authenticates no request by itself — the session opened
 * after a validated ticket does — and adds its button to the login page while the record is enabled.
 */
@injectable()
export class CasProvider implements AuthProvider {
  readonly name = 'cas';
  readonly signOn: SignOn;

  constructor(@inject(CasConfigRepository) records: CasConfigRepository) {
    this.signOn = {
      loginPath: casLoginPath,
      label: async () => {
        const record = await records.get();
        return record?.enable ? record.title : null;
      },
    };
  }

  async authenticate(): Promise<ProviderOutcome> {
    return null;
  }
}
