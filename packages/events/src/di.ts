import { defineBridge, provide } from '@vigie/kernel';
import { AmqpIngestion } from './amqp-ingestion.js';
import { EngineBeats } from './engine-beats.js';
import { EngineSettingsService } from './engine-settings.js';
import { EventIntake } from './event-intake.js';
import { EventQueueRepository } from './event-queue.js';
import { PipelineHealth } from './pipeline-health.js';
import { PipelineRunner } from './pipeline-runner.js';
import { QueueTakeover } from './queue-takeover.js';
import { RecentEvents } from './recent-events.js';
import { PipelineDryRun } from './dry-run.js';
import { engineBeatsRef, engineSettingsRef, eventIntakeRef, recentEventsRef } from './refs.js';

/** The events feature's class graph (tsyringe); the feature resolves its classes, dependents see its exports. */
export const eventsBridge = defineBridge({
  singletons: [EngineSettingsService, EngineBeats, EventQueueRepository, PipelineRunner, QueueTakeover, EventIntake, PipelineHealth, RecentEvents, PipelineDryRun],
  exports: [provide(engineSettingsRef, EngineSettingsService), provide(engineBeatsRef, EngineBeats), provide(eventIntakeRef, EventIntake), provide(recentEventsRef, RecentEvents)],
});

/** The AMQP ingestion feature's class graph: it hands what it consumes to the events feature's intake. */
export const eventsAmqpBridge = defineBridge({
  imports: [eventIntakeRef],
  singletons: [AmqpIngestion],
});
