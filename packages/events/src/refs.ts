import { serviceRef } from '@vigie/kernel';
import type { EventIntake } from './event-intake.js';
import type { AmqpConfig } from './amqp-config.js';
import type { EngineBeats } from './engine-beats.js';
import type { EngineSettings } from './pipeline.js';

/** The durable queue's intake: what sources (HTTP, AMQP, heartbeats, correlation) hand their events to. */
export const eventIntakeRef = serviceRef<EventIntake>('events.eventIntake');

/** The `[engine]` settings as the engines read them (beat interval, limits). */
export const engineSettingsRef = serviceRef<EngineSettings>('events.engineSettings');

/** `[amqp]` as the `events-amqp` feature read it: other features carry their own messages on the same broker. */
export const amqpConfigRef = serviceRef<AmqpConfig>('events-amqp.config');

/** Every engine beat of the kernel, to run them on demand (tests drive the engines with it). */
export const engineBeatsRef = serviceRef<EngineBeats>('events.engineBeats');
