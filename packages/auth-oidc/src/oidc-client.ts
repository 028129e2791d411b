import { injectable } from 'tsyringe';
import { compactVerify, createLocalJWKSet, errors as joseErrors, type JSONWebKeySet } from 'jose';
import * as client from 'openid-client';
import { injectRef, kernelRefs, type Clock, type Logger } from '@vigie/kernel';
import { oidcConfig, type OidcConfig } from './config.js';
import type { OidcSettings } from './oidc-config-repository.js';

/** How long a provider's discovery document is used before it is read again. */
const discoveryMaxAgeSec = 3600;
/** How long the provider's keys are trusted before they are read again (a withdrawn key stops being accepted). */
const keysMaxAgeSec = 3600;
/**
 * A token naming a key Vigie does not have makes it read the keys again (the provider rotated them), but at most
 * once per this many seconds: tokens with made-up key ids must not turn Vigie into a stream of requests to the provider.
 */
export const keysRefetchCooldownSec = 60;
const maxKeySetBytes = 256 * 1024;
/** Seconds of clock difference with the provider accepted on `iat`, `exp`, `auth_time`. */
const clockToleranceSec = 60;

/** Why the provider's answer was refused (logged; the browser sees the login page). */
export class OidcRefusal extends Error {}

/** What a login sends the provider and must find again in its answer. */
export interface LoginChecks {
  state: string;
  nonce: string;
  codeVerifier: string;
}

/** The claims of a verified ID token, completed from the userinfo endpoint when the token lacks some. */
export type VerifiedClaims = Record<string, unknown> & { sub: string };

interface CachedKeys {
  keys: ReturnType<typeof createLocalJWKSet>;
  fetchedAt: number;
}

/** Plain http: the record schema accepts it only for a provider on a loopback address. */
function plainHttp(issuer: string): boolean {
  return new URL(issuer).protocol === 'http:';
}

/** Describes an openid-client or jose failure for the log: its message, the claim it is about, the provider's error. */
function reason(err: unknown): string {
  const e = err as { message?: string; error?: string; error_description?: string; cause?: { claim?: unknown; cause?: { claim?: unknown } } };
  const claim = e.cause?.claim ?? e.cause?.cause?.claim;
  const about = typeof claim === 'string' ? ` (claim ${claim})` : '';
  const provider = e.error ? ` (${e.error}${e.error_description ? `: ${e.error_description}` : ''})` : '';
  return `${e.message ?? String(err)}${about}${provider}`;
}

/**
 * Talks to the OpenID provider with openid-client: discovery, the authorization URL with PKCE, the code exchange and
 * the ID-token claim checks (issuer, audience, expiry, nonce), the userinfo request and the end-session URL. The
 * signature of the ID token is checked here against the provider's published keys (jose), with a cache timed by the
 * kernel clock: read again after an hour, or when a token names an unknown key (rotation), at most once a minute.
 */
@injectable()
export class OidcClient {
  readonly #servers = new Map<string, { metadata: client.ServerMetadata; fetchedAt: number }>();
  readonly #keys = new Map<string, CachedKeys>();

  constructor(
    @injectRef(kernelRefs.clock) private readonly clock: Clock,
    @injectRef(oidcConfig.ref) private readonly config: OidcConfig,
    @injectRef(kernelRefs.logger) private readonly logger: Logger,
  ) {}

  /** The provider's metadata from `<issuer>/.well-known/openid-configuration` (cached an hour); throws OidcRefusal. */
  async server(issuer: string): Promise<client.ServerMetadata> {
    const cached = this.#servers.get(issuer);
    const now = this.clock.nowSec();
    if (cached && now - cached.fetchedAt < discoveryMaxAgeSec) return cached.metadata;
    let metadata: client.ServerMetadata;
    try {
      // The client id is not used by discovery; the configuration is rebuilt per request with the record's.
      const discovered = await client.discovery(new URL(issuer), 'discovery', undefined, undefined, {
        timeout: this.#timeoutSec(),
        // Plain http: accepted by the record schema for a loopback provider only.
        execute: plainHttp(issuer) ? [client.allowInsecureRequests] : [],
      });
      metadata = discovered.serverMetadata();
    } catch (err) {
      throw new OidcRefusal(`discovery at ${issuer} failed: ${reason(err)}`);
    }
    this.#servers.set(issuer, { metadata, fetchedAt: now });
    return metadata;
  }

  /** Where to send the browser: the authorization endpoint with the code flow, PKCE (S256), state and nonce. */
  async authorizationUrl(settings: OidcSettings, redirectUri: string, checks: LoginChecks): Promise<string> {
    const configuration = this.#configuration(settings, await this.server(settings.issuer));
    return client
      .buildAuthorizationUrl(configuration, {
        redirect_uri: redirectUri,
        scope: settings.scopes,
        response_type: 'code',
        code_challenge: await client.calculatePKCECodeChallenge(checks.codeVerifier),
        code_challenge_method: 'S256',
        state: checks.state,
        nonce: checks.nonce,
      })
      .toString();
  }

  /**
   * Checks the provider's answer (state, `iss` when the provider sends it, its error if any), exchanges the code with
   * the PKCE verifier, checks the ID token (claims, then signature) and returns it with its claims, completed by the
   * userinfo endpoint unless they are `sufficient`. Throws OidcRefusal.
   */
  async signOn(
    settings: OidcSettings,
    callbackUrl: URL,
    checks: LoginChecks,
    sufficient: (claims: VerifiedClaims) => boolean,
  ): Promise<{ claims: VerifiedClaims; idToken: string }> {
    const server = await this.server(settings.issuer);
    const configuration = this.#configuration(settings, server);
    let tokens: Awaited<ReturnType<typeof client.authorizationCodeGrant>>;
    try {
      tokens = await client.authorizationCodeGrant(configuration, callbackUrl, {
        pkceCodeVerifier: checks.codeVerifier,
        expectedState: checks.state,
        expectedNonce: checks.nonce,
        idTokenExpected: true,
      });
    } catch (err) {
      throw new OidcRefusal(`the provider's answer was refused: ${reason(err)}`);
    }
    const idToken = tokens.id_token as string;
    await this.#verifySignature(server, idToken, settings.signing_alg);
    const claims = tokens.claims() as VerifiedClaims;
    if (server.userinfo_endpoint === undefined || sufficient(claims)) return { claims, idToken };
    try {
      const userinfo = await client.fetchUserInfo(configuration, tokens.access_token, claims.sub);
      // The ID token's own claims win: they are the ones the signature covers.
      return { claims: { ...userinfo, ...claims }, idToken };
    } catch (err) {
      throw new OidcRefusal(`the userinfo request failed: ${reason(err)}`);
    }
  }

  /** The provider's end-session URL (RP-initiated logout), or null when it advertises none. */
  async endSessionUrl(settings: OidcSettings, postLogoutRedirectUri: string, idTokenHint: string | null): Promise<string | null> {
    const server = await this.server(settings.issuer);
    if (server.end_session_endpoint === undefined) return null;
    const parameters: Record<string, string> = { client_id: settings.client_id, post_logout_redirect_uri: postLogoutRedirectUri };
    if (idTokenHint !== null) parameters.id_token_hint = idTokenHint;
    return client.buildEndSessionUrl(this.#configuration(settings, server), parameters).toString();
  }

  /** A configuration per request: the kernel clock's offset from the system clock goes into openid-client's checks. */
  #configuration(settings: OidcSettings, server: client.ServerMetadata): client.Configuration {
    const secret = settings.client_secret;
    const basicAllowed = server.token_endpoint_auth_methods_supported?.includes('client_secret_basic') ?? true;
    const authentication = secret === '' ? client.None() : basicAllowed ? client.ClientSecretBasic(secret) : client.ClientSecretPost(secret);
    const configuration = new client.Configuration(
      server,
      settings.client_id,
      {
        id_token_signed_response_alg: settings.signing_alg,
        [client.clockSkew]: this.clock.nowSec() - Math.floor(Date.now() / 1000),
        [client.clockTolerance]: clockToleranceSec,
      },
      authentication,
    );
    configuration.timeout = this.#timeoutSec();
    if (plainHttp(settings.issuer)) client.allowInsecureRequests(configuration); // loopback only (record schema)
    return configuration;
  }

  #timeoutSec(): number {
    return Math.max(1, Math.ceil(this.config.timeout_ms / 1000));
  }

  async #verifySignature(server: client.ServerMetadata, idToken: string, algorithm: string): Promise<void> {
    const jwksUri = server.jwks_uri;
    if (jwksUri === undefined) throw new OidcRefusal('the provider publishes no jwks_uri: ID-token signatures cannot be checked');
    let cached = await this.#currentKeys(jwksUri);
    for (;;) {
      try {
        await compactVerify(idToken, cached.keys, { algorithms: [algorithm] });
        return;
      } catch (err) {
        const unknownKey = err instanceof joseErrors.JWKSNoMatchingKey;
        if (unknownKey && this.clock.nowSec() - cached.fetchedAt >= keysRefetchCooldownSec) {
          this.logger.info({ jwksUri }, 'an ID token names an unknown key: reading the provider keys again');
          cached = await this.#fetchKeys(jwksUri);
          continue;
        }
        throw new OidcRefusal(`the ID token signature was refused: ${reason(err)}`);
      }
    }
  }

  async #currentKeys(jwksUri: string): Promise<CachedKeys> {
    const cached = this.#keys.get(jwksUri);
    if (cached && this.clock.nowSec() - cached.fetchedAt < keysMaxAgeSec) return cached;
    return this.#fetchKeys(jwksUri);
  }

  async #fetchKeys(jwksUri: string): Promise<CachedKeys> {
    let jwks: JSONWebKeySet;
    try {
      const res = await fetch(jwksUri, { signal: AbortSignal.timeout(this.config.timeout_ms), redirect: 'error', headers: { accept: 'application/json' } });
      if (!res.ok) throw new Error(`HTTP ${res.status}`);
      const text = await res.text();
      if (Buffer.byteLength(text) > maxKeySetBytes) throw new Error('the key set is too large');
      jwks = JSON.parse(text) as JSONWebKeySet;
      if (!Array.isArray(jwks?.keys)) throw new Error('no keys array');
    } catch (err) {
      throw new OidcRefusal(`cannot read the provider keys at ${jwksUri}: ${reason(err)}`);
    }
    const cached = { keys: createLocalJWKSet(jwks), fetchedAt: this.clock.nowSec() };
    this.#keys.set(jwksUri, cached);
    return cached;
  }
}

/** A claim by name, or by dotted path into nested objects (`realm_access.roles`) when no claim has the whole name. */
export function claimValue(claims: Record<string, unknown>, name: string): unknown {
  if (name === '') return undefined;
  if (Object.hasOwn(claims, name)) return claims[name];
  let value: unknown = claims;
  for (const part of name.split('.')) {
    if (typeof value !== 'object' || value === null || Array.isArray(value) || !Object.hasOwn(value, part)) return undefined;
    value = (value as Record<string, unknown>)[part];
  }
  return value;
}
