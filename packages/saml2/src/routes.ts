import { HttpError, type RouteDefinition, type VigieContext } from '@vigie/kernel';
import { requestBody } from '@vigie/input';
import { answerLoginPage, localPath, sessionsRef } from '@vigie/auth';
import { Saml2Refusal, Saml2Service } from './saml2-service.js';
import { saml2Paths } from './setup.js';

const tags = ['auth'];
const service = (ctx: VigieContext) => ctx.state.scope.resolve(Saml2Service);
const sessions = (ctx: VigieContext) => ctx.state.scope.resolve(sessionsRef);

/** Runs a SAML2 route: 404 while switched off; a missing or broken setup is logged to saml2.log and answered 503. */
async function withProvider<T>(ctx: VigieContext, work: (saml: Saml2Service) => Promise<T>): Promise<T> {
  const saml = service(ctx);
  if (!saml.enabled) throw new HttpError(404, 'SAML2 is not enabled on this server ([webservices] saml2 = 1)');
  try {
    saml.provider();
  } catch (err) {
    const reason = err instanceof Saml2Refusal ? err.message : `the SAML2 setup cannot be read: ${(err as Error).message}`;
    // The kernel logs the 503 itself; this line says why.
    ctx.state.log.warn(reason);
    await saml.log.error(reason);
    throw new HttpError(503, 'SAML2 is not set up on this server');
  }
  return work(saml);
}

/** Where to go after the identity provider: a local path, or a URL of this service (the spec's RelayState `<service_url>/`). */
function afterLogin(relayState: unknown, acsUrl: string): string {
  if (typeof relayState !== 'string' || relayState === '') return '/login';
  if (relayState.startsWith('/')) return localPath(relayState);
  try {
    const target = new URL(relayState);
    const self = new URL(acsUrl);
    if (target.origin !== self.origin) return '/login';
    const path = `${target.pathname}${target.search}`;
    return path === '/' ? '/login' : localPath(path);
  } catch {
    return '/login';
  }
}

export const saml2Routes: RouteDefinition[] = [
  {
    method: 'GET',
    path: saml2Paths.login,
    public: true,
    summary: 'SAML2 sign-on: go to the identity provider',
    description: 'Redirects (302) to the identity provider’s single sign-on service with an AuthnRequest (HTTP-Redirect binding); `next` (a local path) becomes the RelayState.',
    tags,
    responses: { 302: { description: 'To the identity provider' }, 503: { description: 'SAML2 enabled but not set up (`vigie saml2 import`)' } },
    handler: (ctx) =>
      withProvider(ctx, async (saml) => {
        const next = typeof ctx.query.next === 'string' ? localPath(ctx.query.next) : '/login';
        ctx.redirect(await saml.loginUrl(next));
      }),
  },
  {
    method: 'POST',
    path: saml2Paths.acs,
    public: true,
    body: { accept: ['form'], limit: 1024 * 1024 },
    summary: 'SAML2 assertion consumer service (HTTP-POST)',
    description:
      'Checks the identity provider’s `SAMLResponse` (signatures as `advanced_settings.json` demands — at least one always —, ' +
      'issuer, audience, recipient, validity times, single use, NameID present), creates the user at first login, opens a session ' +
      'and redirects (303) to the RelayState when it is a path of this service, else `/login`. A refused response answers 401 with ' +
      'the login page; the reason goes to `var/log/saml2.log`.',
    tags,
    responses: {
      303: { description: 'Signed on' },
      401: { description: 'Response refused: the login page with an error', contentType: 'text/html' },
      503: { description: 'SAML2 enabled but not set up' },
    },
    handler: (ctx) =>
      withProvider(ctx, async (saml) => {
        const body = requestBody(ctx) as Record<string, unknown> | undefined;
        const response = typeof body?.SAMLResponse === 'string' ? body.SAMLResponse : '';
        if (response === '') {
          await saml.log.error('invalid_response: no SAMLResponse in the POST');
          return answerLoginPage(ctx, 401, 'signon');
        }
        const outcome = await saml.consume(response);
        if (!outcome || 'refused' in outcome) return answerLoginPage(ctx, 401, 'signon');
        await sessions(ctx).open(ctx, outcome.user);
        ctx.status = 303;
        ctx.redirect(afterLogin(body?.RelayState, saml.provider().setup.settings.sp.assertionConsumerService.url));
      }),
  },
  {
    method: 'GET',
    path: saml2Paths.metadata,
    public: true,
    summary: 'SAML2 service provider metadata',
    description: 'The service provider’s metadata (entity id, ACS, SLS, NameID format, certificates when signing or decrypting) for the identity provider.',
    tags,
    responses: { 200: { description: 'SAML2 metadata', contentType: 'application/samlmetadata+xml' }, 503: { description: 'SAML2 enabled but not set up' } },
    handler: (ctx) =>
      withProvider(ctx, async (saml) => {
        ctx.type = 'application/samlmetadata+xml';
        ctx.body = saml.metadata();
      }),
  },
  {
    method: 'GET',
    path: saml2Paths.sls,
    public: true,
    summary: 'SAML2 single logout service (HTTP-Redirect)',
    description:
      'A LogoutRequest of the identity provider ends the sessions of its NameID’s user and is answered with a LogoutResponse ' +
      '(redirect to the identity provider); a LogoutResponse redirects to `/login`. Refused messages answer 400; the reason goes to `var/log/saml2.log`.',
    tags,
    responses: { 302: { description: 'LogoutResponse to the identity provider, or `/login`' }, 400: { description: 'Logout message refused' } },
    handler: (ctx) =>
      withProvider(ctx, async (saml) => {
        const query = Object.fromEntries(Object.entries(ctx.query).filter((e): e is [string, string] => typeof e[1] === 'string'));
        const result = await saml.logout(query, ctx.querystring, (user) => sessions(ctx).closeAllOf(user));
        if ('refused' in result) throw new HttpError(400, 'Logout message refused');
        await sessions(ctx).close(ctx);
        ctx.redirect(result.redirect);
      }),
  },
];
