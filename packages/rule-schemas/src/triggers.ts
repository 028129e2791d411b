/** The alarm changes a hook (action or webhook) can listen to (REFERENCE §5.4). */
export const hookTriggers = [
  'ack',
  'ackremove',
  'assocticket',
  'cancel',
  'changestate',
  'comment',
  'create',
  'declareticket',
  'declareticketwebhook',
  'done',
  'metaalarm',
  'metaalarmupdated',
  'resolve',
  'snooze',
  'statedec',
  'stateinc',
  'statusdec',
  'statusinc',
  'uncancel',
  'unsnooze',
] as const;

export type HookTrigger = (typeof hookTriggers)[number];

/** Triggers raised by internal processing, not by an event: `event_patterns` can never match them. */
export const triggersWithoutEvent = ['declareticketwebhook', 'resolve', 'unsnooze'] as const satisfies readonly HookTrigger[];
