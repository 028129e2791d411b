import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { HttpServer, HttpServerContext, HttpServerFactory, ListeningAddress } from '@vigie/kernel';
import { createHttpApp, InFlight } from './app.js';
import { parseByteSize } from './body.js';
import { recordingStore } from './recorded-store.js';
import type { ResponseMismatch } from './response-check.js';

export interface KoaHttpServerOptions {
  /**
   * Told of every answer a route's handler gives that contradicts the response schema the route declares for its
   * status (test kernels set it; in production response schemas are documentation and no answer is checked).
   */
  onResponseMismatch?: (mismatch: ResponseMismatch) => void;
}

/**
 * The kernel's HTTP server: the Koa application that routes, authenticates, reads bodies, runs the features'
 * handlers and renders errors, on a Node server with the `[server]` bounds on headers, slow clients and connections.
 */
export function koaHttpServer(options: KoaHttpServerOptions = {}): HttpServerFactory {
  return { instrumentStore: recordingStore, create: (context) => createServerOf(context, options) };
}

/** The Koa application on a Node server bounded by `[server]`, driven by the kernel. */
function createServerOf(context: HttpServerContext, options: KoaHttpServerOptions): HttpServer {
  const { config } = context;
  const inFlight = new InFlight();
  const bodyDefaults = { limit: parseByteSize(config.body_limit), jsonMaxDepth: config.json_max_depth };
  const app = createHttpApp({ ...context, bodyDefaults, onResponseMismatch: options.onResponseMismatch }, inFlight);
  const server = createServer(
    {
      maxHeaderSize: parseByteSize(config.max_header_size),
      headersTimeout: config.headers_timeout_ms,
      requestTimeout: config.request_timeout_ms,
      // Node checks both timeouts on this period (30 s by default): often enough that a slow client is cut
      // within a tenth of its header timeout, or a second.
      connectionsCheckingInterval: Math.max(10, Math.min(1000, Math.floor(config.headers_timeout_ms / 10))),
    },
    app.callback(),
  );
  server.keepAliveTimeout = config.keep_alive_timeout_ms;
  server.timeout = config.socket_timeout_ms;
  if (config.max_connections > 0) server.maxConnections = config.max_connections;
  let closed: Promise<void> | undefined;
  const stopAccepting = (): Promise<void> => (closed ??= new Promise<void>((resolveClose) => server.close(() => resolveClose())));
  return {
    listen: () =>
      new Promise<ListeningAddress>((resolveListen, reject) => {
        server.once('error', reject);
        server.listen(config.port, config.host, () => {
          server.off('error', reject);
          const address = server.address() as AddressInfo;
          const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;
          resolveListen({ host: address.address, port: address.port, url: `http://${host}:${address.port}` });
        });
      }),
    quiesce: async (graceMs) => {
      void stopAccepting();
      server.closeIdleConnections();
      return (await inFlight.idle(graceMs)) ? 0 : inFlight.count;
    },
    close: async () => {
      const done = stopAccepting();
      server.closeAllConnections();
      await done;
    },
  };
}
