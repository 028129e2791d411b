import { defineBridge } from '@vigie/kernel';
import { alarmReaderRef, alarmSearchRef } from '@vigie/alarms';
import { entityReaderRef, entityRepositoryRef } from '@vigie/context-graph';
import { ExportService } from './export-service.js';

/** The exports feature's class graph (tsyringe). */
export const exportsBridge = defineBridge({
  imports: [alarmReaderRef, alarmSearchRef, entityRepositoryRef, entityReaderRef],
  singletons: [ExportService],
});
