import { injectable } from 'tsyringe';
import { injectRef, kernelRefs, KERNEL_VERSION, type RouterRouteEntry } from '@vigie/kernel';
import { buildOpenApiDocument, type CatalogRoute } from './document.js';

/** Builds the document once: routes do not change while the server runs. */
@injectable()
export class OpenApiService {
  #document: Record<string, unknown> | undefined;

  constructor(@injectRef(kernelRefs.routeCatalog) private readonly catalog: { list(): CatalogRoute[]; routers?(): RouterRouteEntry[] }) {}

  document(): Record<string, unknown> {
    this.#document ??= buildOpenApiDocument(this.catalog.list(), {
      title: 'Vigie API',
      version: KERNEL_VERSION,
      description: 'Alarm supervision API (api-v2). Every route needs credentials: HTTP Basic, or an API key.',
    }, this.catalog.routers?.() ?? []);
    return this.#document;
  }
}
