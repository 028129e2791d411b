import { defineBridge } from '@vigie/kernel';
import { OpenApiService, OpenApiTokens } from './openapi-service.js';

export const openApiBridge = defineBridge({
  imports: { routeCatalog: OpenApiTokens.RouteCatalog },
  singletons: [OpenApiService],
  exports: { openApiService: OpenApiService },
});
