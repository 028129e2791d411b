import 'reflect-metadata';

export { defineFeature, defineRoute, featureConfig } from './feature.js';
/** The Koa context type, for providers and helpers that read requests. */
export type { Context as HttpContext } from 'koa';
export type {
  AnyFeature,
  BodyMedia,
  BodyOptions,
  ErrorWording,
  Extensions,
  FeatureConfig,
  FeatureDefinition,
  FeatureRegistrar,
  HealthCheckDefinition,
  HttpMethod,
  JobDefinition,
  KoaRouterLike,
  LifecycleHook,
  RouteCatalog,
  QueryOptions,
  RouteDefinition,
  RouteInput,
  RouteResponseDoc,
  RouterOptions,
  RouterRouteDoc,
  RouterRouteEntry,
  VigieContext,
  VigieState,
  WordedError,
} from './feature.js';
export { Kernel, createKernel, type KernelOptions } from './kernel.js';
export type { HttpServer, HttpServerContext, HttpServerFactory, ListeningAddress, MountedRoute, MountedRouter } from './http/port.js';
export { KERNEL_VERSION } from './composition.js';
export { defineBridge, provide, type BridgeExport, type BridgeSpec, type DiBridge } from './di/bridge.js';
export {
  serviceRef,
  eventRef,
  collectionRef,
  extensionPointRef,
  injectRef,
  type AnyEventRef,
  type AnyServiceRef,
  type CollectionRef,
  type Constructor,
  type RefParameterDecorator,
  type EventRef,
  type ExtensionPointRef,
  type FeatureScope,
  type ServiceRef,
} from './refs.js';
export { kernelRefs, type InputLimits } from './kernel-refs.js';
export { ErrorCodes, VigieError, HttpError, DuplicateKeyError, hasCode, isHttpError, errorDetail, type ErrorCode } from './errors.js';
export type { StreamLimits } from './http/stream-limits.js';
export { systemClock, ManualClock, type Clock } from './clock.js';
export { EventBus } from './event-bus.js';
export { RunScopedStorage } from './run-scoped-storage.js';
export { createLogger, type Logger, type LogOptions } from './log.js';
export { envVariableFor, ConfigFiles, type ConfigOverrides } from './config/ini.js';
export type { ServerConfig, LogConfig } from './config/kernel-config.js';
export { maxJsonDepth } from './config/kernel-config.js';
export {
  parseBasicAuthorization,
  secretsEqual,
  type AuthenticatedUser,
  type AuthOutcome,
  type Authenticator,
} from './auth.js';
export { everyRight, holdsRight, missingRight, ownAccountRight, rightPattern, type Rights } from './rights.js';
export type {
  BatchOperation,
  BatchResult,
  Collection,
  DeleteResult,
  Doc,
  Filter,
  FindOneAndUpdateOptions,
  FindOptions,
  IndexSpec,
  JsonValue,
  Projection,
  SortSpec,
  Store,
  StoreChanges,
  StoreAdapter,
  StoreFactory,
  StoreFactoryContext,
  Update,
  UpdateOperator,
  UpsertOptions,
  WriteResult,
} from './store/port.js';
export { updateOperators } from './store/port.js';
export type { FeatureStore, StoreProbe } from './store/owned-store.js';
export type { Scheduler, SchedulerEngine, SchedulerFactory, SchedulerFactoryContext, JobRun, JobOptions, RetryPolicy, ScheduledJob } from './scheduler/port.js';
export type { JobStorePort, StoredJob, JobQuery, JobSelection, JobSortField } from './scheduler/job-store.js';
export type { AuditChange, AuditEntry, AuditOutcome, AuditRefusal, AuditTrail } from './audit.js';
export type { ClientOrigin } from './http/client-origin.js';
