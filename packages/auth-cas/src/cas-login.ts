import { inject, injectable } from 'tsyringe';
import { injectRef, kernelRefs, type Logger } from '@vigie/kernel';
import { providerChainRef, userAdministrationRef, type ProviderChain, type ProviderOutcome, type UserAdministration } from '@vigie/auth';
import { CasClient } from './cas-client.js';
import { CasConfigRepository, type CasRecord } from './cas-config-repository.js';
import { casLoginPath } from './cas-provider.js';

/** The CAS login flow: send the browser to `<server>/login`, then validate the ticket it comes back with. */
@injectable()
export class CasLogin {
  constructor(
    @inject(CasConfigRepository) private readonly records: CasConfigRepository,
    @inject(CasClient) private readonly client: CasClient,
    @injectRef(userAdministrationRef) private readonly users: UserAdministration,
    @injectRef(providerChainRef) private readonly chain: ProviderChain,
    @injectRef(kernelRefs.logger) private readonly logger: Logger,
  ) {}

  /** The enabled record, or null when CAS is not in `[auth] providers`, not configured, or disabled. */
  async enabledRecord(): Promise<CasRecord | null> {
    if (!this.chain.uses('cas')) return null;
    const record = await this.records.get();
    return record?.enable ? record : null;
  }

  /** The service URL given to the CAS server: this route, with `next` when there is one (validation repeats it exactly). */
  serviceUrl(record: CasRecord, next: string | null): string {
    return `${record.service}${casLoginPath}${next === null ? '' : `?next=${encodeURIComponent(next)}`}`;
  }

  loginUrl(record: CasRecord, next: string | null): string {
    return `${record.server}/login?service=${encodeURIComponent(this.serviceUrl(record, next))}`;
  }

  /** Validates a ticket and signs its user on (created with `default_role` at first login). */
  async finish(record: CasRecord, ticket: string, next: string | null): Promise<ProviderOutcome> {
    const check = await this.client.validate(record.server, this.serviceUrl(record, next), ticket);
    if ('refused' in check) {
      this.logger.warn({ server: record.server }, `CAS ticket refused: ${check.refused}`);
      return check;
    }
    const a = check.attributes;
    const outcome = await this.users.signOnExternal({
      name: check.user,
      via: 'cas',
      defaultRole: record.default_role,
      contact: { mail: a.mail ?? a.email, firstname: a.firstname ?? a.givenName ?? a.given_name, lastname: a.lastname ?? a.sn ?? a.surname ?? a.family_name },
    });
    if (outcome && 'refused' in outcome) this.logger.warn({ user: check.user }, `CAS sign-on refused: ${outcome.refused}`);
    return outcome;
  }
}
