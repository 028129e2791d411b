import { array, boolean, mixed, object, string } from 'yup';

const text = { type: 'string' };
/** An event's fields (REFERENCE §6.3), as JSON Schema: the documentation the OpenAPI document and its clients read. */
const eventFields = {
  event_type: { type: 'string', description: 'check, ack, ackremove, cancel, uncancel, done, assocticket, declareticket, snooze, unsnooze, changestate, keepstate, comment, perf, …' },
  source_type: { type: 'string', enum: ['connector', 'component', 'resource', 'metaalarm', 'service'] },
  connector: text,
  connector_name: text,
  component: { type: 'string', description: 'needed unless source_type is connector' },
  resource: { type: 'string', description: 'needed when source_type is resource' },
  state: { type: 'integer', minimum: 0, maximum: 3 },
  timestamp: { type: 'number', description: 'epoch seconds; now when absent' },
  output: { type: 'string', description: 'cut to 255 characters' },
  long_output: { type: 'string', description: 'cut to 1024 characters' },
  author: { type: 'string', maxLength: 255 },
  ticket: { type: 'string', maxLength: 255 },
  duration: { type: 'integer', minimum: 1, description: 'seconds, for a snooze' },
  ack_resources: { type: 'boolean' },
  debug: { type: 'boolean' },
};

export const eventSchema = object().meta({
  jsonSchema: {
    type: 'object',
    description: 'An event (REFERENCE §6.3). Other keys are kept.',
    properties: eventFields,
    required: ['event_type', 'source_type', 'connector', 'connector_name'],
  },
});

/** One event or a list of events: the event's fields apply to the object, `items` to the list. */
export const eventBodySchema = mixed().meta({
  jsonSchema: {
    type: ['object', 'array'],
    description: 'One event, or a list of events',
    properties: eventFields,
    required: ['event_type', 'source_type', 'connector', 'connector_name'],
    items: { type: 'object', properties: eventFields },
  },
});

export const ingestionAnswerSchema = object({
  sent_events: array(eventSchema).required(),
  failed_events: array(
    object({
      event: mixed(),
      field: string().nullable(),
      error: string().required(),
    }),
  ).required(),
  retry_events: array(eventSchema).required(),
});

const effectSchema = object({ what: string().required(), details: object() });

/** What `POST /api/v2/event/dry-run` answers. */
export const dryRunReportSchema = object({
  event: object().required(),
  entity_id: string().required(),
  dropped: string().nullable().defined(),
  stages: array(object({ stage: string().required(), simulated: boolean().required(), would: array(effectSchema).required() })).required(),
});
