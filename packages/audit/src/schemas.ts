import { array, mixed, number, object, string, type InferType } from 'yup';
import { idField, nameField } from '@vigie/input';

export const auditQuerySchema = object({
  user: idField(string()),
  via: idField(string()),
  method: string().oneOf(['POST', 'PUT', 'PATCH', 'DELETE', 'post', 'put', 'patch', 'delete']),
  route: nameField(string()).meta({ description: 'Route templates starting with this text (`/api/v2/idle-rule`)' }),
  resource: nameField(string()).meta({ description: 'Paths containing this text (a resource id)' }),
  right: idField(string()),
  outcome: string().oneOf(['pending', 'done', 'failed', 'refused']),
  client: idField(string()).meta({ description: 'Client address' }),
  from: number().integer().min(0).meta({ description: 'Epoch seconds, inclusive' }),
  to: number().integer().min(0).meta({ description: 'Epoch seconds, exclusive' }),
  page: number().integer().min(1).max(1_000_000).default(1),
  limit: number().integer().min(1).max(1000).default(50),
});

export type AuditQuery = InferType<typeof auditQuerySchema>;

export const auditRecordSchema = object({
  _id: string().required(),
  requestId: string().required(),
  at: number().required(),
  user: object({
    id: string().defined().meta({ description: 'Empty on a `refused` record whose credentials were not accepted' }),
    name: string().defined().meta({ description: 'On a `refused` record with unaccepted credentials: the user name they claimed' }),
    via: string().defined(),
    apiKey: string(),
  }).required(),
  method: string().required(),
  route: string().required(),
  path: string().required(),
  params: object().required(),
  right: string(),
  clientAddress: string().defined(),
  body: mixed().nullable().meta({ description: 'The request body, secrets masked; null when streamed or absent' }),
  outcome: string().oneOf(['pending', 'done', 'failed', 'refused']).required(),
  status: number().nullable().defined(),
  ended: number().nullable().defined(),
  changes: array(
    object({
      collection: string().required(),
      id: string().required(),
      before: mixed().nullable().meta({ description: 'The document before the change, secrets masked; null when it was created' }),
      after: mixed().nullable().meta({ description: 'The document after the change, secrets masked; null when it was deleted' }),
    }),
  )
    .required()
    .meta({ description: 'The documents the request wrote (at most 100; a document over 16 KiB as `{_id, truncated, chars}`); empty while `pending`' }),
  changesOmitted: number().required().meta({ description: 'Documents written beyond those in `changes`, counted only' }),
  reason: string().meta({ description: 'Why a `refused` write was refused' }),
  requests: number().meta({
    description:
      'On the record of a minute of a tallied route (the event intake): the requests of that minute from this user, key and client address; ' +
      '`at` and `requestId` are the first one\'s, `status` and `ended` the last answer\'s, `changesOmitted` what they all wrote',
  }),
  pending: number().meta({ description: 'On a tally: its requests not answered yet (or whose process died while handling them)' }),
  failed: number().meta({ description: 'On a tally: its requests answered with an error (`outcome` is then `failed`)' }),
});

export const auditPageSchema = object({
  data: array(auditRecordSchema).required(),
  meta: object({ page: number().required(), per_page: number().required(), page_count: number().required(), total_count: number().required() }).required(),
});
