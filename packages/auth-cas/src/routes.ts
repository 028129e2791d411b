import type { RouteDefinition, VigieContext } from '@vigie/kernel';
import { answerLoginPage, identityRecordRoutes, localPath, sessionsRef } from '@vigie/auth';
import { CasConfigRepository } from './cas-config-repository.js';
import { CasLogin } from './cas-login.js';
import { casLoginPath } from './cas-provider.js';
import { casRecordInputSchema, casRecordSchema } from './schemas.js';

const tags = ['auth'];
const login = (ctx: VigieContext) => ctx.state.scope.resolve(CasLogin);

function queryValue(ctx: VigieContext, name: string): string | null {
  const value = ctx.query[name];
  return typeof value === 'string' ? value : null;
}

export const casRoutes: RouteDefinition[] = [
  ...identityRecordRoutes({
    path: '/rest/object/casconfig/cservice.casconfig',
    name: 'CAS configuration',
    inputSchema: casRecordInputSchema,
    recordSchema: casRecordSchema,
    post: {
      summary: 'Store the single sign-on (CAS) configuration',
      description:
        'Replaces the `cservice.casconfig` record: `server` (CAS base URL), `service` (Vigie’s external base URL), `default_role`, ' +
        '`title` (button label, `CAS` by default), `enable` (true by default). Requires the right `identity:write` (the built-in administrator role has it).',
      answer: 'The stored record',
    },
    get: { summary: 'Read the single sign-on (CAS) configuration', answer: 'The stored record; `data` is empty when none is stored' },
    tags,
    store: (ctx) => ctx.state.scope.resolve(CasConfigRepository),
  }),
  {
    method: 'GET',
    path: casLoginPath,
    public: true,
    summary: 'CAS sign-on: go to the CAS server, and come back with a ticket',
    description:
      'Without `ticket`: redirects (302) to `<server>/login?service=<service>/auth/cas/login`. With `ticket` (the CAS server’s ' +
      'redirect back): validates it once with `<server>/serviceValidate`, signs the user on (created with `default_role` at ' +
      'first login), opens a session and redirects (303) to `next` or `/login`. An invalid, replayed or refused ticket ' +
      'answers 401 with the login page and an error.',
    tags,
    responses: {
      302: { description: 'To the CAS server' },
      303: { description: 'Signed on: to `next`, or `/login` (also when CAS is not enabled, with `?error=disabled`)' },
      401: { description: 'Ticket refused: the login page with an error', contentType: 'text/html' },
    },
    handler: async (ctx) => {
      const flow = login(ctx);
      const record = await flow.enabledRecord();
      if (!record) {
        ctx.status = 303;
        return ctx.redirect('/login?error=disabled');
      }
      const given = queryValue(ctx, 'next');
      const next = given === null ? null : localPath(given);
      const ticket = queryValue(ctx, 'ticket');
      if (ticket === null) return ctx.redirect(flow.loginUrl(record, next));
      const outcome = await flow.finish(record, ticket, given);
      if (!outcome || 'refused' in outcome) return answerLoginPage(ctx, 401, 'signon');
      await ctx.state.scope.resolve(sessionsRef).open(ctx, outcome.user);
      ctx.status = 303;
      return ctx.redirect(next ?? '/login');
    },
  },
];
