import { object, string } from 'yup';
import { alarmListQuerySchema } from '@vigie/alarms';

/** The selection of `GET /alerts/get-alarms` (paging and sorting do not apply to a stream). */
export const alarmStreamQuerySchema = alarmListQuerySchema.pick(['opened', 'resolved', 'tstart', 'tstop', 'filter', 'search']);

export const errorSchema = object({ name: string().defined(), description: string().defined() });
