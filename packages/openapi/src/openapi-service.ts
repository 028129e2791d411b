import { inject, injectable } from 'tsyringe';
import { KERNEL_VERSION, type RouterRouteEntry } from '@vigie/kernel';
import { buildOpenApiDocument, type CatalogRoute } from './document.js';

export const OpenApiTokens = {
  RouteCatalog: Symbol.for('openapi.RouteCatalog'),
} as const;

/** Builds the document once: routes do not change while the server runs. */
@injectable()
export class OpenApiService {
  #document: Record<string, unknown> | undefined;

  constructor(@inject(OpenApiTokens.RouteCatalog) private readonly catalog: { list(): CatalogRoute[]; routers?(): RouterRouteEntry[] }) {}

  document(): Record<string, unknown> {
    this.#document ??= buildOpenApiDocument(this.catalog.list(), {
      title: 'Vigie API',
      version: KERNEL_VERSION,
      description: 'Alarm supervision API (api-v2). Every route needs credentials: HTTP Basic, or an API key.',
    }, this.catalog.routers?.() ?? []);
    return this.#document;
  }
}
