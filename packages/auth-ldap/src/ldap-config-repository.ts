import { injectable } from 'tsyringe';
import type { InferType } from 'yup';
import { ErrorCodes, injectRef, VigieError, type Doc } from '@vigie/kernel';
import { type SecretBox } from '@vigie/feature-kit';
import { identityRecordsRef, maskedSecret, userAdministrationRef, type IdentityRecords, type UserAdministration } from '@vigie/auth';
import { ldapSecretBoxRef } from './refs.js';
import type { ldapRecordInputSchema, ldapRecordSchema } from './schemas.js';

export const ldapRecordId = 'cservice.ldapconfig';

/**
 * The directory record as stored in `object` (the original's collection): the record as answered, without `id`, and
 * with `admin_passwd` sealed instead of masked.
 */
export interface LdapRecord extends Doc, Omit<InferType<typeof ldapRecordSchema>, 'id'> {
  _id: typeof ldapRecordId;
  crecord_type: 'ldapconfig';
  crecord_name: 'ldapconfig';
}

/** The record as validated from a request. */
export type LdapRecordInput = InferType<typeof ldapRecordInputSchema>;

/** What read routes answer: the stored record with `id` and the password masked. */
export type PublicLdapRecord = Omit<LdapRecord, 'admin_passwd'> & { id: string; admin_passwd: string };

/** The record with its password opened, for the directory client only. */
export type DirectorySettings = LdapRecord;

function invalid(message: string): VigieError {
  return new VigieError(ErrorCodes.Validation, message);
}

@injectable()
export class LdapConfigRepository {
  constructor(
    @injectRef(identityRecordsRef) private readonly records: IdentityRecords,
    @injectRef(ldapSecretBoxRef) private readonly secrets: SecretBox,
    @injectRef(userAdministrationRef) private readonly users: UserAdministration,
  ) {}

  /** Replaces the record; an absent password, or the masked one, keeps the stored one. */
  async save(input: LdapRecordInput): Promise<PublicLdapRecord> {
    const stored = await this.records.get<LdapRecord>(ldapRecordId);
    // The masked value sent back means "unchanged" when a password is stored; with none stored it is taken as sent.
    const keep = input.admin_passwd === undefined || (input.admin_passwd === maskedSecret && stored !== null);
    const password = keep ? null : (input.admin_passwd as string);
    if (password === null && !stored) throw invalid('admin_passwd is required');
    const ldapUri = input.ldap_uri ?? `ldap://${input.host as string}:${input.port ?? 389}`;
    const record: LdapRecord = {
      _id: ldapRecordId,
      crecord_type: 'ldapconfig',
      crecord_name: 'ldapconfig',
      ldap_uri: ldapUri,
      ...(input.host === undefined ? {} : { host: input.host }),
      ...(input.port === undefined ? {} : { port: input.port }),
      admin_dn: input.admin_dn,
      admin_passwd: password === null ? (stored as LdapRecord).admin_passwd : this.secrets.seal(password),
      user_dn: input.user_dn,
      ufilter: input.ufilter,
      ...(input.username_attr === undefined ? {} : { username_attr: input.username_attr }),
      ...(input.attrs === undefined ? {} : { attrs: input.attrs }),
      default_role: input.default_role,
    };
    await this.records.put(record);
    // Credentials verified under the previous directory settings must be checked again.
    await this.users.forgetCredentials();
    return this.#public(record);
  }

  async get(): Promise<PublicLdapRecord | null> {
    const record = await this.records.get<LdapRecord>(ldapRecordId);
    return record ? this.#public(record) : null;
  }

  /** The stored record with its bind password opened, or null when none is stored. */
  async settings(): Promise<DirectorySettings | null> {
    const record = await this.records.get<LdapRecord>(ldapRecordId);
    return record ? { ...record, admin_passwd: this.secrets.open(record.admin_passwd) } : null;
  }

  #public(record: LdapRecord): PublicLdapRecord {
    return { ...record, id: ldapRecordId, admin_passwd: maskedSecret };
  }
}
