export { eventsFeature, eventsHealthChecks } from './feature.js';
export { engineConfigSchema, type EngineConfig } from './config.js';
export { EventIntake } from './event-intake.js';
export { acceptEvent, eventProblem, routingKeyOf, sourceTypes, type EventProblem, type EventSender } from './event-validation.js';
export { PipelineRunner, laneOf, type PipelineStats } from './pipeline-runner.js';
export {
  PipelineOrder,
  entityIdOf,
  pipelineStagesPoint,
  type EngineSettings,
  type PipelineContext,
  type PipelineStage,
  type VigieEvent,
} from './pipeline.js';
