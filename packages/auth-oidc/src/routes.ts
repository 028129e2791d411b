import type { RouteDefinition, VigieContext } from '@vigie/kernel';
import { answerLoginPage, identityRecordRoutes, localPath, sessionsRef } from '@vigie/auth';
import { OidcRefusal } from './oidc-client.js';
import { OidcConfigRepository, type OidcSettings } from './oidc-config-repository.js';
import { loginCookie, logoutCookie, setCookie } from './cookies.js';
import { loginTtlSec, logoutHintMaxAgeSec, OidcLogin, oidcPaths } from './oidc-login.js';
import { oidcRecordInputSchema, oidcRecordSchema } from './schemas.js';

const tags = ['auth'];
const login = (ctx: VigieContext) => ctx.state.scope.resolve(OidcLogin);

async function whenEnabled(ctx: VigieContext, work: (settings: OidcSettings) => Promise<void>): Promise<void> {
  const settings = await login(ctx).enabledSettings();
  if (settings) return work(settings);
  ctx.status = 303;
  ctx.redirect('/login?error=disabled');
}

export const oidcRoutes: RouteDefinition[] = [
  ...identityRecordRoutes({
    path: '/rest/object/oidcconfig/cservice.oidcconfig',
    name: 'OpenID Connect configuration',
    inputSchema: oidcRecordInputSchema,
    recordSchema: oidcRecordSchema,
    post: {
      summary: 'Store the OpenID Connect sign-on configuration',
      description:
        'Replaces the `cservice.oidcconfig` record: `issuer`, `client_id`, `client_secret` (stored encrypted, answered masked; leave ' +
        'it out or send it masked to keep the stored one, empty for a public client), `service` (Vigie’s external base URL), ' +
        '`scopes`, `claims`, `role_map`, `default_role`, `title`, `signing_alg`, `enable`. Requires the right `identity:write` (the built-in administrator role has it).',
      answer: 'The stored record, secret masked',
    },
    get: {
      summary: 'Read the OpenID Connect sign-on configuration',
      description: 'The stored record with `client_secret` masked; `data` is empty when none is stored.',
      answer: 'The stored record, secret masked',
    },
    tags,
    store: (ctx) => ctx.state.scope.resolve(OidcConfigRepository),
  }),
  {
    method: 'GET',
    path: oidcPaths.login,
    public: true,
    summary: 'OpenID Connect sign-on: go to the provider',
    description:
      'Redirects (302) to the provider’s authorization endpoint (authorization code flow, PKCE S256, state, nonce); `next` (a local ' +
      'path) is where the browser goes once signed on. Sets a short-lived cookie holding the login (sealed), which ties the answer to this browser.',
    tags,
    responses: {
      302: { description: 'To the provider' },
      303: { description: 'OpenID Connect is not enabled: to `/login?error=disabled`' },
      503: { description: 'The provider cannot be reached (discovery failed): the login page with an error', contentType: 'text/html' },
    },
    handler: (ctx) =>
      whenEnabled(ctx, async (settings) => {
        const flow = login(ctx);
        let started: { url: string; cookie: string };
        try {
          started = await flow.start(settings, localPath(ctx.query.next));
        } catch (err) {
          if (!(err instanceof OidcRefusal)) throw err;
          ctx.state.log.warn(`OpenID Connect sign-on unavailable: ${err.message}`);
          return answerLoginPage(ctx, 503, 'unavailable');
        }
        setCookie(ctx, settings, loginCookie, started.cookie, loginTtlSec);
        ctx.redirect(started.url);
      }),
  },
  {
    method: 'GET',
    path: oidcPaths.callback,
    public: true,
    summary: 'OpenID Connect redirect URI: the provider’s answer',
    description:
      'Checks the answer (state equal to this browser’s login cookie, not older than 10 minutes, `iss`), exchanges the code with the PKCE verifier, checks the ' +
      'ID token (signature by the provider’s keys, issuer, audience, expiry, nonce), maps its claims to the user (created at first ' +
      'login) and its roles, opens a session and redirects (303) to `next` or `/login`. A refused answer (or the provider’s error) ' +
      'answers 401 with the login page; the reason is logged.',
    tags,
    responses: {
      303: { description: 'Signed on: to `next` or `/login` (also when OpenID Connect is not enabled, with `?error=disabled`)' },
      401: { description: 'Answer refused: the login page with an error', contentType: 'text/html' },
    },
    handler: (ctx) =>
      whenEnabled(ctx, async (settings) => {
        const flow = login(ctx);
        const cookie = ctx.cookies.get(loginCookie.name) ?? null;
        setCookie(ctx, settings, loginCookie, '', 0);
        const result = await flow.finish(settings, new URLSearchParams(ctx.querystring), cookie);
        if ('refused' in result) return answerLoginPage(ctx, 401, 'signon');
        await ctx.state.scope.resolve(sessionsRef).open(ctx, result.user);
        const hint = flow.sealLogoutHint(result.idToken);
        if (hint !== null) setCookie(ctx, settings, logoutCookie, hint, logoutHintMaxAgeSec);
        ctx.status = 303;
        ctx.redirect(result.next);
      }),
  },
];
