import { injectable } from 'tsyringe';
import { ErrorCodes, injectRef, VigieError, type Doc } from '@vigie/kernel';
import { type SecretBox } from '@vigie/feature-kit';
import { identityRecordsRef, maskedSecret, type IdentityRecords } from '@vigie/auth';
import { oidcSecretBoxRef } from './refs.js';
import { defaultClaims, type OidcRecordInput, type OidcRecordOutput } from './schemas.js';

export const oidcRecordId = 'cservice.oidcconfig';

/**
 * The OpenID Connect record as stored in `object` (beside the LDAP and CAS records): the record as answered, without
 * `id`, and with `client_secret` sealed (`''` for a public client) instead of masked.
 */
export interface OidcRecord extends Doc, Omit<OidcRecordOutput, 'id'> {
  _id: typeof oidcRecordId;
  crecord_type: 'cservice';
  crecord_name: 'oidcconfig';
}

/** What read routes answer: the stored record with `id` and the secret masked. */
export type PublicOidcRecord = OidcRecord & { id: string };

/** The record with its client secret opened (`''` for a public client), for the sign-on only. */
export type OidcSettings = OidcRecord;

@injectable()
export class OidcConfigRepository {
  constructor(
    @injectRef(identityRecordsRef) private readonly records: IdentityRecords,
    @injectRef(oidcSecretBoxRef) private readonly secrets: SecretBox,
  ) {}

  /** Replaces the record; an absent secret, or the masked one, keeps the stored one; `''` stores none. */
  async save(input: OidcRecordInput): Promise<PublicOidcRecord> {
    const stored = await this.records.get<OidcRecord>(oidcRecordId);
    const keep = input.client_secret === undefined || input.client_secret === maskedSecret;
    if (input.client_secret === maskedSecret && !stored?.client_secret) {
      throw new VigieError(ErrorCodes.Validation, 'client_secret is masked but no secret is stored: send the secret');
    }
    const secret = keep ? (stored?.client_secret ?? '') : input.client_secret === '' ? '' : this.secrets.seal(input.client_secret as string);
    const record: OidcRecord = {
      _id: oidcRecordId,
      crecord_type: 'cservice',
      crecord_name: 'oidcconfig',
      // Posting a configuration means wanting it: enabled unless said otherwise.
      enable: input.enable ?? true,
      // The issuer is compared character for character with the tokens' `iss`: kept exactly as given.
      issuer: input.issuer,
      client_id: input.client_id,
      client_secret: secret,
      service: input.service.replace(/\/+$/, ''),
      scopes: input.scopes ?? 'openid profile email',
      default_role: input.default_role,
      title: input.title ?? 'OpenID Connect',
      claims: { ...defaultClaims, ...Object.fromEntries(Object.entries(input.claims ?? {}).filter(([, name]) => name !== undefined)) },
      role_map: (input.role_map ?? []).map(({ value, role }) => ({ value, role })),
      signing_alg: input.signing_alg ?? 'RS256',
    };
    await this.records.put(record);
    return this.#public(record);
  }

  async get(): Promise<PublicOidcRecord | null> {
    const record = await this.records.get<OidcRecord>(oidcRecordId);
    return record ? this.#public(record) : null;
  }

  /** The stored record with its client secret opened, or null when none is stored. */
  async settings(): Promise<OidcSettings | null> {
    const record = await this.records.get<OidcRecord>(oidcRecordId);
    return record ? { ...record, client_secret: record.client_secret === '' ? '' : this.secrets.open(record.client_secret) } : null;
  }

  #public(record: OidcRecord): PublicOidcRecord {
    return { ...record, id: oidcRecordId, client_secret: record.client_secret === '' ? '' : maskedSecret };
  }
}
