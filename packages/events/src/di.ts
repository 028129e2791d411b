import { defineBridge } from '@vigie/kernel';
import { AmqpIngestion } from './amqp-ingestion.js';
import { EngineSettingsService } from './engine-settings.js';
import { EventIntake } from './event-intake.js';
import { EventQueueRepository } from './event-queue.js';
import { PipelineHealth } from './pipeline-health.js';
import { PipelineRunner } from './pipeline-runner.js';
import { EventsTokens } from './tokens.js';

/** The events feature's class graph (tsyringe) and what awilix sees of it. */
export const eventsBridge = defineBridge({
  singletons: [EngineSettingsService, EventQueueRepository, PipelineRunner, EventIntake, PipelineHealth],
  exports: { engineSettings: EngineSettingsService, eventIntake: EventIntake, pipelineRunner: PipelineRunner, pipelineHealth: PipelineHealth },
});

/** The AMQP ingestion feature's class graph: it hands what it consumes to the events feature's intake. */
export const eventsAmqpBridge = defineBridge({
  imports: { eventIntake: EventsTokens.EventIntake },
  singletons: [AmqpIngestion],
  exports: { amqpIngestion: AmqpIngestion },
});
