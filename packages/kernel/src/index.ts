import 'reflect-metadata';

export { defineFeature } from './feature.js';
/** The Koa context type, for providers and helpers that read requests. */
export type { Context as HttpContext } from 'koa';
export type {
  AnyFeature,
  Extensions,
  FeatureConfigSource,
  FeatureDefinition,
  FeatureRegistrar,
  HealthCheckDefinition,
  HttpMethod,
  JobDefinition,
  KoaRouterLike,
  LifecycleHook,
  RouteDefinition,
  RouteResponseDoc,
  RouterOptions,
  RouterRouteDoc,
  RouterRouteEntry,
  VigieContext,
  VigieState,
} from './feature.js';
export { Kernel, createKernel, KERNEL_VERSION, type KernelOptions, type ListeningAddress } from './kernel.js';
export { KernelTokens, defineBridge, type BridgeSpec, type DiBridge } from './di/bridge.js';
export { ErrorCodes, VigieError, HttpError, DuplicateKeyError, hasCode, isHttpError, errorDetail, type ErrorCode } from './errors.js';
export { defaultWording, wordError, type ErrorWording, type WordedError } from './http/error-wording.js';
export { parseByteSize, readBody, type BodyDefaults, type BodyMedia, type BodyOptions } from './http/body.js';
export { JsonDepthMeter, FormJsonDepthMeter, assertJsonDepth, defaultJsonMaxDepth, type InputLimits } from './http/json-depth.js';
export { requestBody, pathParam } from './http/context.js';
export { validate, durationPattern, durationSeconds, durationSetting, type CheckOptions } from './validation.js';
export {
  inputBounds,
  idField,
  nameField,
  textField,
  longTextField,
  listField,
  tooLongMessage,
  tooManyMessage,
  assertWithinInputBounds,
} from './input-bounds.js';
export { systemClock, ManualClock, type Clock } from './clock.js';
export { SerialQueues } from './serial-queues.js';
export { DocumentRepository, documentRepositoryClass } from './document-repository.js';
export { EventBus, type VigieEvents } from './event-bus.js';
export { Observations, type HttpObservation, type StoreObservation, type JobObservation, type PipelineObservation } from './observation.js';
export { HealthRegistry, type HealthCheck, type HealthResult } from './health.js';
export { SecretBox, decodeSecretKey, type SecretBoxOptions } from './secret-box.js';
export { createLogger, redactedLogPaths, type Logger, type LogOptions } from './log.js';
export { parseIni, envVariableFor, ConfigFiles, type ConfigOverrides, type IniSections } from './config/ini.js';
export { serverConfigSchema, logConfigSchema, type ServerConfig, type LogConfig } from './config/kernel-config.js';
export {
  StaticBasicAuthenticator,
  parseBasicAuthorization,
  secretsEqual,
  type AuthenticatedUser,
  type AuthOutcome,
  type Authenticator,
} from './auth.js';
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
  StoreAdapter,
  StoreFactory,
  StoreFactoryContext,
  Update,
  UpdateOperator,
  UpsertOptions,
  WriteResult,
} from './store/port.js';
export { updateOperators } from './store/port.js';
export { DocumentEngine, EngineStore, ChangeSet, createMemoryStore, type DocChange, type EnginePersistence, type ResolvedIndexSpec } from './store/memory.js';
export { memoryStoreFactory } from './store/memory-adapter.js';
export { cloneJson, jsonEqual } from './store/json.js';
export { assertSafeFilter, assertSafeRegex, assertNoCodeExecution, safeQueryOperators, codeExecutingOperators, type SafeFilterOptions } from './store/filter-safety.js';
export type { Scheduler, JobRun, JobOptions, RetryPolicy, ScheduledJob } from './scheduler/port.js';
export { AgendaScheduler } from './scheduler/agenda-scheduler.js';
export { StoreJobRepository, StoreAgendaBackend } from './scheduler/store-job-repository.js';
