import { mixed, string } from 'yup';
import { HttpError, type RouteDefinition } from '@vigie/kernel';
import { OpenApiService } from './openapi-service.js';
import { referenceAsset, referencePage, referencePaths } from './reference-page.js';

export const openApiRoutes: RouteDefinition[] = [
  {
    method: 'GET',
    path: referencePaths.documentPath,
    right: 'openapi:read',
    summary: 'The OpenAPI 3.1 description of this server',
    tags: ['openapi'],
    responses: { 200: { description: 'An OpenAPI 3.1 document', schema: mixed() } },
    handler: (ctx) => ctx.state.scope.resolve(OpenApiService).document(),
  },
  {
    method: 'GET',
    path: referencePaths.page,
    right: 'openapi:read',
    summary: 'Interactive API reference (Swagger UI) of this server',
    tags: ['openapi'],
    responses: { 200: { description: 'An HTML page', contentType: 'text/html', schema: string() } },
    handler: (ctx) => {
      ctx.type = 'text/html; charset=utf-8';
      ctx.set('Cache-Control', 'no-cache');
      ctx.set('Content-Security-Policy', "default-src 'self'; img-src 'self' data:; style-src 'self' 'unsafe-inline'; frame-ancestors 'none'");
      return referencePage;
    },
  },
  {
    method: 'GET',
    path: referencePaths.assets,
    right: 'openapi:read',
    summary: 'Static assets of the API reference page (Swagger UI), authenticated like the page',
    tags: ['openapi'],
    responses: { 200: { description: 'A stylesheet, script or icon' }, 404: { description: 'No such asset' } },
    handler: (ctx) => {
      const asset = referenceAsset(ctx.params.asset ?? '');
      if (!asset) throw new HttpError(404, `No asset ${ctx.params.asset ?? ''} in the API reference`);
      ctx.type = asset.type;
      // Credentials protect the assets too, so caches shared between users must not keep them.
      ctx.set('Cache-Control', 'private, max-age=3600');
      ctx.body = asset.body;
      return undefined;
    },
  },
];
