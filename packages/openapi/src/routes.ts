import { mixed } from 'yup';
import type { RouteDefinition } from '@vigie/kernel';
import type { OpenApiService } from './openapi-service.js';

export const openApiRoutes: RouteDefinition[] = [
  {
    method: 'GET',
    path: '/api/v2/openapi.json',
    summary: 'The OpenAPI 3.1 description of this server',
    tags: ['openapi'],
    responses: { 200: { description: 'An OpenAPI 3.1 document', schema: mixed() } },
    handler: (ctx) => ctx.state.scope.resolve<OpenApiService>('openApiService').document(),
  },
];
