import { array, object, string } from 'yup';
import { HttpError, kernelRefs, type AuthenticatedUser, type RouteDefinition, type VigieContext } from '@vigie/kernel';
import { requestBody } from '@vigie/input';
import { loginErrors, renderLoginPage } from './login-page.js';
import { providerChainRef, sessionsRef } from './refs.js';
import { UserRepository } from './user-repository.js';

const accountSchema = object({
  id: string().required(),
  name: string().required(),
  role: string().nullable(),
  roles: array(string().required()).required(),
  rights: array(string().required()).required().meta({ description: 'What the user may do; `*` stands for every right' }),
  via: string().required(),
  csrf_token: string().meta({ description: 'With a login session: send it in `X-CSRF-Token` with every POST, PUT, PATCH and DELETE (also in the `vigie_csrf` cookie)' }),
});
const errorSchema = object({ name: string().required(), description: string().required() });
const loginSchema = object({
  username: string().required(),
  password: string().required(),
  next: string().optional().meta({ description: 'Local path to go to after a form login (`/login` by default)' }),
});
const tags = ['auth'];

// By reference, not by class: the login page helpers also answer in the scopes of CAS and SAML2, which consume them.
const chain = (ctx: VigieContext) => ctx.state.scope.resolve(providerChainRef);
const sessions = (ctx: VigieContext) => ctx.state.scope.resolve(sessionsRef);

/** The account as `GET /api/v2/account/me` and a JSON login answer it. */
function account(user: AuthenticatedUser): Record<string, unknown> {
  return {
    id: user.id,
    name: user.name,
    role: user.role ?? null,
    roles: [...(user.roles ?? [])],
    rights: [...user.rights].sort(),
    via: user.via,
    ...(user.csrfToken ? { csrf_token: user.csrfToken } : {}),
  };
}

/** A path of this server to go to after login; anything else (other sites, `//host`, `/\host`) becomes `/login`. */
export function localPath(candidate: unknown): string {
  if (typeof candidate !== 'string' || candidate.length > 2048) return '/login';
  return /^\/(?![/\\])[^\s\\]*$/.test(candidate) ? candidate : '/login';
}

/**
 * Where a sign-in without `next` lands: the application at `/` when a composed feature serves one (the console),
 * else the login page, which then says who is signed in.
 */
function landingPath(ctx: VigieContext): string {
  const routes = ctx.state.scope.resolve(kernelRefs.routeCatalog).list();
  return routes.some(({ route }) => route.method === 'GET' && [route.path].flat().includes('/')) ? '/' : '/login';
}

function html(ctx: VigieContext, status: number, page: string): void {
  ctx.status = status;
  ctx.type = 'text/html; charset=utf-8';
  ctx.set('Cache-Control', 'no-store');
  ctx.body = page;
}

function field(body: unknown, name: string): string | undefined {
  const value = typeof body === 'object' && body !== null ? (body as Record<string, unknown>)[name] : undefined;
  return typeof value === 'string' ? value : undefined;
}

async function loginPage(ctx: VigieContext, status: number, error: string | null, next: string, username = ''): Promise<void> {
  const methods = await chain(ctx).signOnMethods();
  html(ctx, status, renderLoginPage({ signedInAs: null, signOn: methods, error, next, username }));
}

/**
 * Answers the login page with one of `loginErrors` (for sign-on callbacks that refuse an identity provider's
 * answer: the browser lands on a page saying so rather than on JSON). Usable from any feature depending on auth.
 */
export function answerLoginPage(ctx: VigieContext, status: number, error: keyof typeof loginErrors & string): Promise<void> {
  return loginPage(ctx, status, loginErrors[error] ?? null, '/login');
}

/** `POST /auth`: a login form (answered with redirects and pages) or a JSON login (answered with JSON). */
async function login(ctx: VigieContext): Promise<unknown> {
  const body = requestBody(ctx);
  const fromForm = ctx.request.is('application/x-www-form-urlencoded') !== false;
  const username = field(body, 'username');
  const password = field(body, 'password');
  const next = localPath(field(body, 'next'));
  if (!username || !password) {
    if (fromForm) return loginPage(ctx, 400, loginErrors.missing as string, next, username ?? '');
    throw new HttpError(400, 'username and password are required');
  }
  const user = await chain(ctx).login(username, password, ctx.state.requestId, ctx.state.client.address);
  if (user) {
    await sessions(ctx).open(ctx, user);
    if (!fromForm) return account(user);
    ctx.status = 303;
    ctx.redirect(next === '/login' ? landingPath(ctx) : next);
    return undefined;
  }
  if (fromForm) {
    // As in the original, a user Vigie does not know (or knows only from an identity provider) is sent to the
    // browser sign-on, where the identity provider decides.
    const known = await ctx.state.scope.resolve(UserRepository).get(username);
    const [signOn] = await chain(ctx).signOnMethods();
    if (signOn && (!known || known.external)) {
      ctx.status = 303;
      ctx.redirect(next === '/login' ? signOn.path : `${signOn.path}?next=${encodeURIComponent(next)}`);
      return undefined;
    }
    return loginPage(ctx, 401, loginErrors.credentials as string, next, username);
  }
  throw new HttpError(401, 'Invalid credentials');
}

export const accountRoutes: RouteDefinition[] = [
  {
    method: 'GET',
    // `/account/me` is the original's path; `/api/v2/account/me` the Vigie one. Both answer the same.
    path: ['/api/v2/account/me', '/account/me'],
    right: 'account:own',
    summary: 'The authenticated user',
    tags,
    responses: { 200: { description: 'The user the request authenticated as', schema: accountSchema } },
    handler: (ctx) => account(ctx.state.user as AuthenticatedUser),
  },
  {
    method: 'POST',
    path: '/auth',
    public: true,
    body: { accept: ['json', 'form'], limit: 16 * 1024 },
    summary: 'Log in and open a session',
    description:
      'Checks `username` and `password` (JSON or an HTML form) with the configured password providers (local users, LDAP) and ' +
      'opens a session: an HttpOnly, SameSite=Lax cookie (Secure over HTTPS) naming a session stored server-side. A JSON ' +
      'login answers the user or 401; a form login is redirected (303) to `next` (by default the console at `/` when it is composed, else `/login`), or shown the login page again with ' +
      'an error, or — for a user Vigie does not know locally when CAS or SAML2 is enabled — sent to that sign-on.',
    tags,
    // Checked by the handler: a form login is answered with the login page, a JSON one with a 400 text.
    requestDoc: loginSchema,
    responses: {
      200: { description: 'JSON login: the user now signed in (the session cookie is set)', schema: accountSchema },
      303: { description: 'Form login: redirect to `next` (success) or to the browser sign-on (user unknown locally)' },
      400: { description: 'User name or password missing', schema: errorSchema },
      401: { description: 'Wrong credentials (JSON login: `Invalid credentials`; form login: the login page with an error)', schema: errorSchema },
      429: { description: 'Too many failed logins of this account from this address (or from this address): `Retry-After` says when to try again', schema: errorSchema },
    },
    handler: login,
  },
  {
    method: 'GET',
    path: '/logout',
    public: true,
    summary: 'End the session',
    description:
      'Deletes the session named by the cookie, clears the cookie and redirects to the login page — or, for a session opened by an ' +
      'identity provider that has a sign-out (OpenID Connect with an `end_session_endpoint`), to that provider, which sends the ' +
      'browser back to the login page. Requests without a session are redirected too.',
    tags,
    responses: { 303: { description: 'Redirect to `/login`, or to the identity provider’s sign-out' } },
    handler: async (ctx) => {
      const session = await sessions(ctx).find(ctx);
      await sessions(ctx).close(ctx);
      const elsewhere = session ? await chain(ctx).signOutUrl(session.via, ctx) : null;
      ctx.status = 303;
      ctx.redirect(elsewhere ?? '/login');
    },
  },
  {
    method: 'GET',
    path: '/login',
    public: true,
    summary: 'The login page',
    description:
      'A plain HTML page: user name and password form, and a button for each enabled browser sign-on (CAS, SAML2). With a ' +
      'session, redirects to `next` when given, else shows who is signed in.',
    tags,
    responses: { 200: { description: 'The page', contentType: 'text/html' }, 303: { description: 'Signed in already: redirect to `next`' } },
    handler: async (ctx) => {
      const user = await chain(ctx).sessionUser(ctx);
      const code = typeof ctx.query.error === 'string' ? ctx.query.error : '';
      const next = localPath(ctx.query.next);
      if (user) {
        // Already signed in (another tab, or the session-ended page of the console): go where the visitor was headed.
        if (next !== '/login') {
          ctx.status = 303;
          ctx.redirect(next);
          return undefined;
        }
        return html(ctx, 200, renderLoginPage({ signedInAs: user.name, signOn: [], error: null, next: landingPath(ctx), username: '' }));
      }
      return loginPage(ctx, 200, loginErrors[code] ?? null, next);
    },
  },
];
