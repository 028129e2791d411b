import { boolean, mixed, number, object, string } from 'yup';

// Descriptions sit in `meta.jsonSchema`, which @sodaru/yup-to-json-schema merges into the generated schema.
const described = (description: string) => ({ jsonSchema: { description } });

const isTextOrList = (value: unknown): value is string | string[] => typeof value === 'string' || (Array.isArray(value) && value.every((v) => typeof v === 'string'));

export const healthcheckQuerySchema = object({
  // A repeated parameter is read as one list: `criticals=amqp&criticals=cache` ≡ `criticals=amqp,cache`.
  criticals: mixed(isTextOrList).meta({
    jsonSchema: {
      type: 'string',
      description:
        'Comma-separated services that `overall` considers, among amqp, cache, database, engines, time_series (alias timeseries). ' +
        'Unknown names are ignored; when none is valid, `overall` is true. All five when absent.',
    },
  }),
});

const serviceState = (service: string) => string().defined().meta(described(`What failed in ${service}; "" when healthy or not checked`));

export const healthSummarySchema = object({
  amqp: serviceState('the AMQP broker'),
  cache: serviceState('the Redis cache'),
  database: serviceState('the database'),
  engines: serviceState("Vigie's engines (scheduler, background jobs)"),
  time_series: serviceState('the time-series store'),
  timestamp: number().integer().required().meta(described('When the summary was made, epoch seconds')),
  overall: boolean().required().meta(described('Whether every critical service is healthy')),
});
