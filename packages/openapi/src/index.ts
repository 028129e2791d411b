export { openApiFeature } from './feature.js';
export { buildOpenApiDocument, openApiPath, type CatalogRoute, type DocumentInfo } from './document.js';
