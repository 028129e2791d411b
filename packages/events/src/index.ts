export { eventsFeature } from './feature.js';
export { engineConfigSchema, type EngineConfig } from './config.js';
export {
  PipelineOrder,
  entityIdOf,
  pipelineStagesPoint,
  type EngineSettings,
  type PipelineContext,
  type PipelineStage,
  type VigieEvent,
} from './pipeline.js';
