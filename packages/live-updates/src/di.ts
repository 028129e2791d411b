import { defineBridge } from '@vigie/kernel';
import { alarmSearchRef } from '@vigie/alarms';
import { amqpConfigRef } from '@vigie/events';
import { broadcastMessageServiceRef } from '@vigie/broadcast';
import { BroadcastFeed } from './broadcast-feed.js';
import { NoticeRelay } from './notice-relay.js';
import { AlarmStreamHub, BroadcastStreamHub, StreamService } from './stream-service.js';

/** The live-updates feature's class graph (tsyringe). */
export const liveUpdatesBridge = defineBridge({
  imports: [alarmSearchRef, amqpConfigRef, broadcastMessageServiceRef],
  singletons: [StreamService, AlarmStreamHub, BroadcastStreamHub, NoticeRelay, BroadcastFeed],
});
