import { array, mixed, object, string } from 'yup';

const eventSchema = object().meta({
  jsonSchema: {
    description:
      'An event (REFERENCE §6.3): event_type, source_type (connector, component, resource), connector, connector_name, component, resource, ' +
      'state (0-3), timestamp (epoch seconds, default now), output, long_output, author, … Other keys are kept.',
  },
});

/** One event or a list of events. */
export const eventBodySchema = mixed().meta({
  jsonSchema: { oneOf: [{ type: 'object' }, { type: 'array', items: { type: 'object' } }], description: 'One event or a list of events' },
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
