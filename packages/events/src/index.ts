export { eventsFeature, eventsHealthChecks } from './feature.js';
export { eventsAmqpFeature } from './amqp-feature.js';
export { amqpConfigSchema, type AmqpConfig } from './amqp-config.js';
export { AmqpIngestion } from './amqp-ingestion.js';
export { engineConfigSchema, type EngineConfig } from './config.js';
export { registerEngineBeat, type EngineBeat } from './engine-beat.js';
export { EventIntake } from './event-intake.js';
export { amqpConfigRef, engineBeatsRef, engineSettingsRef, eventIntakeRef, recentEventsRef } from './refs.js';
export type { EngineBeats } from './engine-beats.js';
export { RecentEvents, type RecentEvent } from './recent-events.js';
export { PipelineDryRun, type DryRunReport, type DryRunStage } from './dry-run.js';
export { acceptEvent, eventProblem, refusedByEventRoute, routingKeyOf, sourceTypes, type EventProblem, type EventSender } from './event-validation.js';
export { PipelineRunner, laneOf, type PipelineStats } from './pipeline-runner.js';
export {
  PipelineOrder,
  entityIdOf,
  pipelineDataKey,
  pipelineStagesPoint,
  type DryRunContext,
  type DryRunEffect,
  type EngineSettings,
  type PipelineContext,
  type PipelineData,
  type PipelineDataKey,
  type PipelineStage,
  type VigieEvent,
} from './pipeline.js';
