import { defineBridge } from '@vigie/kernel';
import { AlarmBeat } from './alarm-beat.js';
import { AlarmChangeService } from './alarm-changes.js';
import { AlarmListService } from './alarm-list.js';
import { AlarmReader } from './alarm-reader.js';
import { AlarmRepository } from './alarm-repository.js';
import { AlarmsTokens } from './tokens.js';

/** The alarms feature's class graph (tsyringe) and what awilix sees of it. */
export const alarmsBridge = defineBridge({
  imports: { entityRepository: AlarmsTokens.EntityRepository },
  singletons: [AlarmRepository, AlarmChangeService, AlarmReader, AlarmBeat, AlarmListService],
  exports: {
    alarmRepository: AlarmRepository,
    alarmChanges: AlarmChangeService,
    alarmReader: AlarmReader,
    alarmBeat: AlarmBeat,
    alarmListService: AlarmListService,
  },
});
