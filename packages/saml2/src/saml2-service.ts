import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { SAML, ValidateInResponseTo, type Profile, type SamlConfig } from '@node-saml/node-saml';
import { injectable } from 'tsyringe';
import { collectionRef, ErrorCodes, injectRef, kernelRefs, type Clock, type Collection, type Doc, type Logger, type FeatureStore } from '@vigie/kernel';
import { userAdministrationRef, type ProviderOutcome, type UserAdministration } from '@vigie/auth';
import { saml2Config, type Saml2Config } from './config.js';
import { Saml2Log } from './saml2-log.js';
import { algorithmName, bindings, readSaml2Setup, saml2ConfigDir, type Saml2Setup } from './setup.js';

/** A response Vigie has accepted once, by digest: the same response posted again is refused. */
export const usedResponseCollection = collectionRef<UsedResponse>('saml2_responses');

export interface UsedResponse extends Doc {
  _id: string;
  at: number;
}

/** Attribute names tried when the user-mapping file leaves a field null (common LDAP, eduPerson and OID names). */
const defaultAttributes = {
  firstname: ['firstname', 'givenName', 'urn:oid:2.5.4.42', 'http://schemas.xmlsoap.org/ws/2005/05/identity/claims/givenname'],
  lastname: ['lastname', 'sn', 'surname', 'urn:oid:2.5.4.4', 'http://schemas.xmlsoap.org/ws/2005/05/identity/claims/surname'],
  mail: ['mail', 'email', 'urn:oid:0.9.2342.19200300.100.1.3', 'http://schemas.xmlsoap.org/ws/2005/05/identity/claims/emailaddress'],
} as const;

function attribute(profile: Profile, name: string): string | undefined {
  const attributes = (profile.attributes ?? {}) as Record<string, unknown>;
  const value = attributes[name] ?? profile[name];
  const first = Array.isArray(value) ? value[0] : value;
  return typeof first === 'string' && first.trim() !== '' ? first.trim() : undefined;
}

/** Why a SAML2 exchange was refused; written to `var/log/saml2.log` and the server log. */
export class Saml2Refusal extends Error {}

/**
 * The service provider, built with @node-saml/node-saml from the imported setup (`<install>/etc/saml2`): the
 * redirect to the identity provider, the ACS check of its answer, metadata and single logout.
 */
@injectable()
export class Saml2Service {
  #loaded: { saml: SAML; setup: Saml2Setup } | undefined;
  readonly #used: Collection<UsedResponse>;
  readonly log: Saml2Log;

  constructor(
    @injectRef(kernelRefs.installDir) private readonly installDir: string,
    @injectRef(userAdministrationRef) private readonly users: UserAdministration,
    @injectRef(saml2Config.ref) private readonly config: Saml2Config,
    @injectRef(kernelRefs.store) store: FeatureStore,
    @injectRef(kernelRefs.clock) private readonly clock: Clock,
    @injectRef(kernelRefs.logger) private readonly logger: Logger,
  ) {
    this.#used = store.collection(usedResponseCollection);
    this.log = new Saml2Log(installDir);
  }

  /** `[webservices] saml2 = 1`. */
  get enabled(): boolean {
    return this.config.saml2;
  }

  /** Whether a setup has been imported (the login button shows only then). */
  configured(): boolean {
    return this.#loaded !== undefined || existsSync(join(this.installDir, saml2ConfigDir, 'settings.json'));
  }

  /** The service provider, read at first use from the imported setup (a restart applies a new import). */
  provider(): { saml: SAML; setup: Saml2Setup } {
    if (!this.#loaded) {
      const dir = join(this.installDir, saml2ConfigDir);
      if (!existsSync(dir)) throw new Saml2Refusal(`SAML2 is enabled but not set up: run \`vigie saml2 import <dir>\` (no ${dir})`);
      const setup = readSaml2Setup(dir);
      this.#loaded = { saml: new SAML(this.#options(setup)), setup };
    }
    return this.#loaded;
  }

  #options(setup: Saml2Setup): SamlConfig {
    const { settings, advanced, spCert, spKey } = setup;
    const security = advanced.security;
    const signs = Boolean(security.authnRequestsSigned || security.logoutRequestSigned || security.logoutResponseSigned);
    const decrypts = Boolean(security.wantAssertionsEncrypted || security.wantNameIdEncrypted || security.nameIdEncrypted);
    const idpCert = settings.idp.x509cert.includes('-----BEGIN')
      ? settings.idp.x509cert
      : `-----BEGIN CERTIFICATE-----\n${settings.idp.x509cert.replace(/\s+/g, '').match(/.{1,64}/g)?.join('\n') ?? ''}\n-----END CERTIFICATE-----\n`;
    return {
      issuer: settings.sp.entityId,
      callbackUrl: settings.sp.assertionConsumerService.url,
      entryPoint: settings.idp.singleSignOnService.url,
      audience: settings.sp.entityId,
      idpIssuer: settings.idp.entityId,
      idpCert,
      identifierFormat: settings.sp.NameIDFormat ?? 'urn:oasis:names:tc:SAML:2.0:nameid-format:unspecified',
      // node-saml always requires one valid signature (the response's or the assertion's); these demand more.
      wantAssertionsSigned: security.wantAssertionsSigned === true,
      wantAuthnResponseSigned: security.wantMessagesSigned === true,
      ...(signs && spKey ? { privateKey: spKey, publicCert: spCert ?? undefined } : {}),
      ...(decrypts && spKey ? { decryptionPvk: spKey } : {}),
      signatureAlgorithm: algorithmName(security.signatureAlgorithm) ?? 'sha256',
      digestAlgorithm: algorithmName(security.digestAlgorithm) ?? 'sha256',
      signMetadata: security.signMetadata === true,
      logoutUrl: settings.idp.singleLogoutService?.url ?? settings.idp.singleSignOnService.url,
      logoutCallbackUrl: settings.sp.singleLogoutService?.url,
      // Answers to our own requests are checked against them (single use); unsolicited ones have no InResponseTo.
      validateInResponseTo: ValidateInResponseTo.ifPresent,
      acceptedClockSkewMs: 60_000,
      disableRequestedAuthnContext: true,
    };
  }

  async loginUrl(relayState: string): Promise<string> {
    return this.provider().saml.getAuthorizeUrlAsync(relayState, undefined, {});
  }

  metadata(): string {
    const { saml, setup } = this.provider();
    const security = setup.advanced.security;
    const decrypts = Boolean(security.wantAssertionsEncrypted || security.wantNameIdEncrypted || security.nameIdEncrypted);
    const signs = Boolean(security.authnRequestsSigned || security.logoutRequestSigned || security.logoutResponseSigned);
    const metadata = saml.generateServiceProviderMetadata(decrypts ? setup.spCert : null, signs ? setup.spCert : null);
    // node-saml always advertises HTTP-POST for single logout; Vigie's SLS route takes the HTTP-Redirect binding the
    // spec names. Signed metadata cannot be edited after the fact: it keeps node-saml's value (see the README).
    if (security.signMetadata) return metadata;
    return metadata.replace(/(<SingleLogoutService Binding=")[^"]+(")/, `$1${bindings.redirect}$2`);
  }

  /** Checks an identity provider's answer posted to the ACS and signs its user on. */
  async consume(samlResponse: string): Promise<ProviderOutcome> {
    const { saml, setup } = this.provider();
    let profile: Profile | null;
    try {
      ({ profile } = await saml.validatePostResponseAsync({ SAMLResponse: samlResponse }));
    } catch (err) {
      return this.#refuse(`invalid_response: ${(err as Error).message}`);
    }
    if (!profile) return this.#refuse('invalid_response: the response holds no assertion');
    const nameId = typeof profile.nameID === 'string' ? profile.nameID.trim() : '';
    if (nameId === '') return this.#refuse('invalid_response: the assertion has no NameID (the identity provider must send one)');
    const digest = createHash('sha256').update(samlResponse).digest('hex');
    const now = this.clock.nowSec();
    try {
      await this.#used.deleteMany({ at: { $lt: now - 86_400 } });
      await this.#used.insertOne({ _id: digest, at: now });
    } catch (err) {
      if ((err as { code?: string }).code === ErrorCodes.DuplicateKey) return this.#refuse(`invalid_response: response already used (NameID ${nameId})`);
      throw err;
    }
    const mapping = setup.mapping;
    const pick = (field: keyof typeof defaultAttributes): string | undefined => {
      const named = mapping[field];
      if (named) return attribute(profile as Profile, named);
      for (const candidate of defaultAttributes[field]) {
        const value = attribute(profile as Profile, candidate);
        if (value !== undefined) return value;
      }
      return undefined;
    };
    const name = mapping.userid ? attribute(profile, mapping.userid) : nameId;
    if (!name) return this.#refuse(`invalid_response: the assertion for ${nameId} has no attribute ${mapping.userid ?? ''} (userid of the user mapping)`);
    const outcome = await this.users.signOnExternal({
      name,
      via: 'saml2',
      defaultRole: this.config.saml2_default_role,
      contact: { mail: pick('mail'), firstname: pick('firstname'), lastname: pick('lastname') },
    });
    if (outcome && 'refused' in outcome) return this.#refuse(`sign-on refused: ${outcome.refused}`);
    return outcome;
  }

  /**
   * The single logout endpoint (HTTP-Redirect): a LogoutRequest of the identity provider ends the user's sessions
   * and is answered with a LogoutResponse URL; a LogoutResponse to a logout Vigie started just ends there.
   */
  async logout(query: Record<string, string>, originalQuery: string, closeSessions: (user: string) => Promise<unknown>): Promise<{ redirect: string } | { refused: string }> {
    const { saml, setup } = this.provider();
    // node-saml accepts unsigned logout messages; an unsigned LogoutRequest would let anyone end anyone's sessions.
    if (query.SAMLRequest && !query.Signature) return this.#refuse('logout refused: the LogoutRequest is not signed');
    try {
      // node-saml answers a LogoutResponse with no profile, a LogoutRequest with the profile of its NameID.
      const { profile } = await saml.validateRedirectAsync(query, originalQuery);
      if (!profile) return { redirect: '/login' };
      const user = setup.mapping.userid ? null : profile.nameID;
      if (user) await closeSessions(user);
      return { redirect: await saml.getLogoutResponseUrlAsync(profile, query.RelayState ?? '', {}, true) };
    } catch (err) {
      const refusal = await this.#refuse(`logout refused: ${(err as Error).message}`);
      return refusal;
    }
  }

  async #refuse(reason: string): Promise<{ refused: string }> {
    this.logger.warn(`SAML2 refused: ${reason}`);
    await this.log.error(reason);
    return { refused: reason };
  }
}
