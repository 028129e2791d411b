import { HttpError, kernelRefs, type RouteDefinition, type VigieContext } from '@vigie/kernel';
import { providerChainRef } from '@vigie/auth';
import { ConsoleAssets } from './console-assets.js';
import { consoleExtensionsPoint } from './refs.js';
import { errorSchema, extensionListSchema } from './schemas.js';

const tags = ['console'];

/** Where the browser application lives: the page at every client route, its built files under `assetsPath`. */
export const consolePaths = {
  /** Paths the application routes itself (history API): each answers the same page. */
  client: ['/', '/alarms', '/weather', '/weather/*watcher', '/health', '/access', '/admin', '/admin/:resource', '/audit', '/import', '/calendar', '/x/*page'],
  assets: '/console/assets/:name',
  extensions: '/api/v2/console/extensions',
};

// The page loads only this server's files; `unsafe-inline` styles are React's `style` attributes.
const contentSecurityPolicy = "default-src 'self'; img-src 'self' data:; style-src 'self' 'unsafe-inline'; frame-ancestors 'none'; base-uri 'none'; form-action 'self'";

const assets = (ctx: VigieContext) => ctx.state.scope.resolve(ConsoleAssets);

async function signedIn(ctx: VigieContext): Promise<boolean> {
  const outcome = await ctx.state.scope.resolve(providerChainRef).authenticate(ctx);
  return outcome.ok;
}

export const consoleRoutes: RouteDefinition[] = [
  {
    method: 'GET',
    path: consolePaths.client,
    // Public so that a visitor without a session is sent to the login page instead of getting a bare 401.
    public: true,
    summary: 'The console (single-page application)',
    description:
      'The operators\' web application. A visitor who is not signed in is redirected to `/login?next=<this path>`; the page ' +
      'itself is never cached (its scripts have hashed names and are cached for a year).',
    tags,
    responses: {
      200: { description: 'The application page', contentType: 'text/html' },
      302: { description: 'Not signed in: redirect to the login page' },
      503: { description: '`The console is not built: run pnpm run build`', schema: errorSchema },
    },
    handler: async (ctx) => {
      if (!(await signedIn(ctx))) {
        ctx.set('Cache-Control', 'no-store');
        ctx.redirect(`/login?next=${encodeURIComponent(ctx.originalUrl)}`);
        return undefined;
      }
      const page = assets(ctx).index();
      if (page === null) throw new HttpError(503, 'The console is not built: run pnpm run build');
      ctx.type = 'text/html; charset=utf-8';
      ctx.set('Cache-Control', 'no-cache');
      ctx.set('Content-Security-Policy', contentSecurityPolicy);
      ctx.set('X-Content-Type-Options', 'nosniff');
      return page;
    },
  },
  {
    method: 'GET',
    path: consolePaths.assets,
    right: 'console:read',
    summary: 'Built files of the console (scripts, styles), authenticated like the page',
    tags,
    responses: { 200: { description: 'A script or stylesheet with a content-hashed name' }, 404: { description: '`No console asset <name>`', schema: errorSchema } },
    handler: (ctx) => {
      const name = ctx.params.name ?? '';
      const asset = assets(ctx).asset(name);
      if (!asset) throw new HttpError(404, `No console asset ${name}`);
      ctx.type = asset.type;
      // The name changes with the content, so a browser may keep it for good; private: credentials protect it.
      ctx.set('Cache-Control', 'private, max-age=31536000, immutable');
      ctx.set('X-Content-Type-Options', 'nosniff');
      ctx.body = asset.body;
      return undefined;
    },
  },
  {
    method: 'GET',
    path: consolePaths.extensions,
    right: 'console:read',
    summary: 'Console extensions of the composed features (pages, alarm-list columns and actions)',
    tags,
    responses: { 200: { description: '`{extensions: [{id, module, pages, alarmColumns, alarmActions}]}`', schema: extensionListSchema } },
    handler: (ctx) => ({
      extensions: ctx.state.scope
        .resolve(kernelRefs.extensions)
        .contributions(consoleExtensionsPoint)
        .map((e) => ({ id: e.id, module: e.module, pages: e.pages ?? [], alarmColumns: e.alarmColumns ?? [], alarmActions: e.alarmActions ?? [] })),
    }),
  },
];
