import { readFileSync } from 'node:fs';
import type { ConnectionOptions } from 'node:tls';
import { Client, InvalidCredentialsError, type Entry } from 'ldapts';
import { inject, injectable } from 'tsyringe';
import { injectRef, kernelRefs, type Logger } from '@vigie/kernel';
import { userAdministrationRef, type ProviderOutcome, type UserAdministration, type UserContact } from '@vigie/auth';
import { ldapConfig, type LdapConfig } from './config.js';
import { userFilter } from './filter.js';
import { LdapConfigRepository, type DirectorySettings } from './ldap-config-repository.js';

function firstValue(entry: Entry, attribute: string | undefined): string | undefined {
  if (!attribute) return undefined;
  const key = Object.keys(entry).find((k) => k.toLowerCase() === attribute.toLowerCase());
  const value = key === undefined ? undefined : entry[key];
  const first = Array.isArray(value) ? value[0] : value;
  if (first === undefined) return undefined;
  return Buffer.isBuffer(first) ? first.toString('utf8') : String(first);
}

/** Why a directory could not be asked at all (as opposed to a refused user). */
class DirectoryUnavailable extends Error {}

/**
 * Directory logins, as the original: bind as `admin_dn`, search `user_dn` (subtree) with `ufilter` (the user name
 * escaped per RFC 4515), bind again as the entry found with the user's password, then sign the user on with
 * `default_role` at first login and the `attrs` mapping copied at every login.
 */
@injectable()
export class LdapDirectory {
  #tls: ConnectionOptions | undefined;

  constructor(
    @inject(LdapConfigRepository) private readonly records: LdapConfigRepository,
    @injectRef(userAdministrationRef) private readonly users: UserAdministration,
    @injectRef(ldapConfig.ref) private readonly config: LdapConfig,
    @injectRef(kernelRefs.logger) private readonly logger: Logger,
  ) {}

  /** null when no directory is configured (the provider does not apply), else the user or why not. */
  async login(username: string, password: string): Promise<ProviderOutcome> {
    const settings = await this.records.settings();
    if (!settings) return null;
    // An empty password makes an LDAP bind "unauthenticated" (RFC 4513 §5.1.2), which many directories accept.
    if (password === '') return { refused: `empty password for ${username}` };
    if (username === '') return { refused: 'empty user name' };
    const client = new Client({
      url: settings.ldap_uri,
      timeout: this.config.timeout_ms,
      connectTimeout: this.config.connect_timeout_ms,
      // ldapts speaks TLS from the first byte whenever tlsOptions is given: only for ldaps:// then.
      ...(settings.ldap_uri.toLowerCase().startsWith('ldaps://') ? { tlsOptions: this.#tlsOptions() } : {}),
    });
    try {
      const entry = await this.#findUser(client, settings, username);
      if (!entry) return { refused: `no directory entry for ${username} under ${settings.user_dn}` };
      try {
        await client.bind(entry.dn, password);
      } catch (err) {
        if (err instanceof InvalidCredentialsError) return { refused: `wrong directory password for ${entry.dn}` };
        throw err;
      }
      const attrs = settings.attrs ?? {};
      const contact: UserContact = { mail: firstValue(entry, attrs.mail), firstname: firstValue(entry, attrs.firstname), lastname: firstValue(entry, attrs.lastname) };
      const name = firstValue(entry, settings.username_attr) ?? username;
      return await this.users.signOnExternal({ name, via: 'ldap', defaultRole: settings.default_role, contact });
    } catch (err) {
      const reason = err instanceof DirectoryUnavailable ? err.message : `directory ${settings.ldap_uri} failed: ${(err as Error).message}`;
      this.logger.warn({ ldapUri: settings.ldap_uri }, `LDAP login unavailable, trying the next provider: ${reason}`);
      return { refused: reason };
    } finally {
      // ldapts keeps the socket open after a failed bind unless told (and unbind on a dead socket throws).
      await client.unbind().catch(() => undefined);
    }
  }

  async #findUser(client: Client, settings: DirectorySettings, username: string): Promise<Entry | null> {
    try {
      if (this.config.starttls && settings.ldap_uri.toLowerCase().startsWith('ldap://')) await client.startTLS(this.#tlsOptions());
      await client.bind(settings.admin_dn, settings.admin_passwd);
    } catch (err) {
      const what = err instanceof InvalidCredentialsError ? `the directory refused the bind as admin_dn ${settings.admin_dn}` : `cannot reach ${settings.ldap_uri}: ${(err as Error).message}`;
      throw new DirectoryUnavailable(what);
    }
    const attributes = [...new Set([settings.username_attr, ...Object.values(settings.attrs ?? {})].filter((a): a is string => typeof a === 'string' && a !== ''))];
    const { searchEntries } = await client.search(settings.user_dn, {
      scope: 'sub',
      filter: userFilter(settings.ufilter, username),
      attributes: attributes.length > 0 ? attributes : ['1.1'],
      sizeLimit: 2,
    });
    if (searchEntries.length > 1) this.logger.warn({ user: username, filter: settings.ufilter }, 'several directory entries match the user; the first one is used');
    return searchEntries[0] ?? null;
  }

  #tlsOptions(): ConnectionOptions {
    this.#tls ??= {
      ...(this.config.ca_file === undefined ? {} : { ca: readFileSync(this.config.ca_file) }),
      rejectUnauthorized: this.config.tls_verify,
    };
    return this.#tls;
  }
}
