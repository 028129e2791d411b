import { createServer, type IncomingMessage, type Server } from 'node:http';
import { decodeJwt, decodeProtectedHeader, exportJWK, generateKeyPair, SignJWT, type JWK, type JWTPayload } from 'jose';
import Provider, { type Configuration } from 'oidc-provider';

/** A user of the test provider: its password and the claims it releases (`sub` is its name). */
export interface IdpUser {
  password: string;
  claims: Record<string, unknown>;
}

/** Changes the test makes to the ID token of the next token answers, re-signed as it says. */
export interface IdTokenTampering {
  claims?: (claims: JWTPayload) => JWTPayload;
  /** Sign with a key the provider does not publish (under the current key's id, or `kid`). */
  foreignKey?: boolean;
  kid?: string;
}

export interface TestIdp {
  issuer: string;
  clientId: string;
  clientSecret: string;
  /** A public client (no secret: PKCE only). */
  publicClientId: string;
  /** Registers Vigie (reached at `service`) as the clients: their redirect URI and post-logout redirect URI. */
  register(service: string): Promise<void>;
  /** Rotates the signing key: a new key signs from now on, published first in the key set beside the old one. */
  rotateKeys(): Promise<void>;
  /** Rewrites the ID token of the token endpoint's answers from now on (null: stop). */
  tamper(change: IdTokenTampering | null): void;
  /** Key-set requests received (`/jwks`). */
  readonly jwksRequests: number;
  /** Userinfo requests received (`/me`). */
  readonly userinfoRequests: number;
  /** Login forms shown (a browser with a live provider session is not shown one). */
  readonly loginForms: number;
  /** Query of each end-session request received. */
  readonly endSessions: URLSearchParams[];
  /** The key id signing tokens now. */
  readonly currentKid: string;
  close(): Promise<void>;
}

interface SigningKey {
  privateJwk: JWK;
  privateKey: CryptoKey;
}

async function newSigningKey(kid: string): Promise<SigningKey> {
  const { privateKey } = await generateKeyPair('RS256', { extractable: true });
  return { privateJwk: { ...(await exportJWK(privateKey)), kid, alg: 'RS256', use: 'sig' }, privateKey };
}

function escapeHtml(text: string): string {
  return text.replace(/[<>&"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

function readForm(req: IncomingMessage): Promise<URLSearchParams> {
  return new Promise((resolve, reject) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
    req.on('end', () => resolve(new URLSearchParams(body)));
    req.on('error', reject);
  });
}

/**
 * A real OpenID provider (the `oidc-provider` package) on a free loopback port: discovery, authorization with a
 * plain login form (submitted by itself for `autoLogin`), token, userinfo, key set and end-session endpoints. Login
 * grants every requested scope (no consent page). The provider is rebuilt on `register` and `rotateKeys`; its grants
 * and codes live in oidc-provider's in-memory store, which outlives the rebuild.
 */
export async function startTestIdp(users: Record<string, IdpUser>, options: { autoLogin?: string; claimsInIdToken?: boolean } = {}): Promise<TestIdp> {
  const clientId = 'vigie';
  const clientSecret = 'vigie-client-secret-for-tests';
  const publicClientId = 'vigie-public';
  let keys: SigningKey[] = [await newSigningKey('key-1')];
  let service: string | null = null;
  let tampering: IdTokenTampering | null = null;
  let jwksRequests = 0;
  let loginForms = 0;
  let userinfoRequests = 0;
  const endSessions: URLSearchParams[] = [];
  const server: Server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const issuer = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
  let provider: Provider | null = null;

  async function resign(idToken: string): Promise<string> {
    const change = tampering as IdTokenTampering;
    const claims = change.claims ? change.claims(decodeJwt(idToken)) : decodeJwt(idToken);
    const header = decodeProtectedHeader(idToken);
    const key = change.foreignKey ? (await newSigningKey('foreign')).privateKey : (keys[0] as SigningKey).privateKey;
    return new SignJWT(claims).setProtectedHeader({ alg: 'RS256', typ: header.typ, kid: change.kid ?? header.kid }).sign(key);
  }

  function build(): Provider {
    const configuration: Configuration = {
      clients: service
        ? [
            {
              client_id: clientId,
              client_secret: clientSecret,
              redirect_uris: [`${service}/auth/oidc/callback`],
              post_logout_redirect_uris: [`${service}/login`],
              response_types: ['code'],
              grant_types: ['authorization_code'],
              token_endpoint_auth_method: 'client_secret_basic',
            },
            {
              client_id: publicClientId,
              redirect_uris: [`${service}/auth/oidc/callback`],
              response_types: ['code'],
              grant_types: ['authorization_code'],
              token_endpoint_auth_method: 'none',
            },
          ]
        : [],
      jwks: { keys: keys.map((key) => key.privateJwk) },
      cookies: { keys: ['test-provider-cookie-key'] },
      claims: { openid: ['sub'], profile: ['preferred_username', 'given_name', 'family_name', 'name'], email: ['email'], groups: ['groups', 'realm_access'] },
      // oidc-provider's default releases scope claims through userinfo only; `claimsInIdToken` puts them in the ID token.
      conformIdTokenClaims: options.claimsInIdToken !== true,
      scopes: ['openid', 'profile', 'email', 'groups'],
      pkce: { required: () => true },
      // Explicit lifetimes (oidc-provider's own defaults), which keeps it from printing a notice for each.
      ttl: { Interaction: 3600, Grant: 1_209_600, Session: 1_209_600, AccessToken: 3600, IdToken: 3600, AuthorizationCode: 60 },
      features: {
        devInteractions: { enabled: false },
        rpInitiatedLogout: {
          enabled: true,
          logoutSource: async (ctx, form) => {
            ctx.body = `<!DOCTYPE html><html><body><h1>Test provider</h1>${form}<button type="submit" form="op.logoutForm" name="logout" value="yes">Sign out of the provider</button></body></html>`;
          },
          postLogoutSuccessSource: async (ctx) => {
            ctx.body = '<!DOCTYPE html><html><body><p>Signed out of the test provider.</p></body></html>';
          },
        },
      },
      interactions: { url: (_ctx, interaction) => `/interaction/${interaction.uid}` },
      findAccount: (_ctx, id) => {
        const user = users[id];
        return user ? { accountId: id, claims: () => ({ sub: id, ...user.claims }) } : undefined;
      },
    };
    const built = new Provider(issuer, configuration);
    built.use(async (ctx, next) => {
      if (ctx.path === '/jwks') jwksRequests += 1;
      if (ctx.path === '/me') userinfoRequests += 1;
      if (ctx.path === '/session/end' && ctx.method === 'GET') endSessions.push(new URLSearchParams(ctx.querystring));
      const interaction = /^\/interaction\/([\w-]+)$/.exec(ctx.path);
      if (interaction && ctx.method === 'GET') {
        const auto = options.autoLogin;
        loginForms += 1;
        ctx.type = 'html';
        ctx.body =
          `<!DOCTYPE html><html><body><h1>Test provider</h1><form method="post" action="${escapeHtml(ctx.path)}">` +
          `<label>Login <input name="username" value="${escapeHtml(auto ?? '')}"></label>` +
          `<label>Secret <input name="password" type="password" value="${escapeHtml(auto ? (users[auto]?.password ?? '') : '')}"></label>` +
          `<button>Log in</button></form>${auto ? '<script>document.forms[0].submit()</script>' : ''}</body></html>`;
        return;
      }
      if (interaction && ctx.method === 'POST') {
        const form = await readForm(ctx.req);
        const name = form.get('username') ?? '';
        if (users[name]?.password !== form.get('password')) {
          ctx.status = 401;
          ctx.body = 'wrong credentials';
          return;
        }
        const details = await built.interactionDetails(ctx.req, ctx.res);
        const grant = new built.Grant({ accountId: name, clientId: String(details.params.client_id) });
        grant.addOIDCScope(String(details.params.scope));
        const grantId = await grant.save();
        const returnTo = await built.interactionResult(ctx.req, ctx.res, { login: { accountId: name }, consent: { grantId } });
        ctx.status = 303;
        ctx.redirect(returnTo);
        return;
      }
      await next();
      const answer = ctx.body as { id_token?: unknown } | undefined;
      if (ctx.path === '/token' && tampering && typeof answer?.id_token === 'string') ctx.body = { ...answer, id_token: await resign(answer.id_token) };
    });
    return built;
  }

  server.on('request', (req, res) => {
    if (!provider) {
      res.writeHead(503).end();
      return;
    }
    void provider.callback()(req, res);
  });
  provider = build();

  return {
    issuer,
    clientId,
    clientSecret,
    publicClientId,
    async register(url) {
      service = url;
      provider = build();
    },
    async rotateKeys() {
      keys = [await newSigningKey(`key-${keys.length + 1}`), ...keys];
      provider = build();
    },
    tamper(change) {
      tampering = change;
    },
    get jwksRequests() {
      return jwksRequests;
    },
    get userinfoRequests() {
      return userinfoRequests;
    },
    get loginForms() {
      return loginForms;
    },
    endSessions,
    get currentKid() {
      return (keys[0] as SigningKey).privateJwk.kid as string;
    },
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
