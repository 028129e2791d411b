import type { IncomingMessage } from 'node:http';
import type { Observations } from '@vigie/observability';
import type { AuditTrail } from '../audit.js';
import type { Authenticator } from '../auth.js';
import type { ServerConfig } from '../config/kernel-config.js';
import type { ErrorWording, KoaRouterLike, RouteDefinition, RouterRouteEntry } from '../feature.js';
import type { Logger } from '../log.js';
import type { FeatureScope } from '../refs.js';
import type { Store } from '../store/port.js';
import type { ClientOrigin } from './client-origin.js';

/** A declared route as the kernel hands it to the HTTP server: the definition, its feature's scope and wording. */
export interface MountedRoute {
  featureId: string;
  route: RouteDefinition;
  scope: FeatureScope;
  wording: ErrorWording | undefined;
}

/** A feature's `@koa/router` router as the kernel hands it to the HTTP server, with its routes as the kernel lists them. */
export interface MountedRouter {
  featureId: string;
  router: KoaRouterLike;
  /** Its routes with the right each needs (what the boot check verified). */
  routes: readonly RouterRouteEntry[];
  scope: FeatureScope;
  wording: ErrorWording | undefined;
}

/** What the kernel gives the HTTP server when it starts: the composed routes and what answering them needs. */
export interface HttpServerContext {
  routes: readonly MountedRoute[];
  /** Tried in order when no declared route matches. */
  routers: readonly MountedRouter[];
  /** Resolved lazily: the authenticating feature builds it at init. */
  authenticator: () => Authenticator | undefined;
  /** Where changes are recorded before their handler runs (resolved lazily); absent when no feature keeps a trail. */
  auditTrail?: () => AuditTrail | undefined;
  /** Where each answered request is reported (metrics). */
  observations: Observations;
  /**
   * Present when the store's reads may see writes not yet durable (`Store.durable`): each answer waits for it, so
   * that what a client was shown (a delivery attempt a job recorded, a rule another request saved) outlives a crash.
   */
  durable?: () => Promise<void> | undefined;
  /** The client's address and scheme, honouring `[server] trusted_proxies`. */
  clientOrigin: (req: IncomingMessage) => ClientOrigin;
  /** `[server]`: address, body and header limits, slow-client timeouts. */
  config: ServerConfig;
  /** `[log] access`: one line per request. */
  accessLog: boolean;
  logger: Logger;
}

export interface ListeningAddress {
  host: string;
  port: number;
  url: string;
}

/** The server the kernel runs the features' routes on; the kernel drives its lifecycle. */
export interface HttpServer {
  /** Listens on `[server] host` and `port`. */
  listen(): Promise<ListeningAddress>;
  /** Stops accepting connections and waits for the requests in flight, at most `graceMs`; how many still run. */
  quiesce(graceMs: number): Promise<number>;
  /** Closes the connections that remain; resolves once the server is closed. */
  close(): Promise<void>;
}

/** How a program chooses its HTTP server (`koaHttpServer()` of `@vigie/kernel-http`). */
export interface HttpServerFactory {
  /**
   * The store the features' views are made over, given once at init before any request: only the HTTP server knows
   * which request a write serves (the Koa server adds what an audited request writes to its audit record).
   */
  instrumentStore?(store: Store): Store;
  /** Builds the server when the kernel starts. */
  create(context: HttpServerContext): HttpServer;
}
