import { object, string } from 'yup';
import { HttpError, defineRoute, requestBody, type RouteDefinition, type VigieContext } from '@vigie/kernel';
import { objectEnvelope, objectEnvelopeSchema, type AdminPolicy } from '@vigie/auth';
import type { LdapConfigRepository } from './ldap-config-repository.js';
import { ldapRecordInputSchema, ldapRecordSchema } from './schemas.js';

const path = '/rest/object/ldapconfig/cservice.ldapconfig';
const tags = ['auth'];
const errorSchema = object({ name: string().required(), description: string().required() });
const repository = (ctx: VigieContext) => ctx.state.scope.resolve<LdapConfigRepository>('ldapConfigRepository');
const policy = (ctx: VigieContext) => ctx.state.scope.resolve<AdminPolicy>('adminPolicy');

export const ldapRoutes: RouteDefinition[] = [
  defineRoute({
    method: 'POST',
    path,
    summary: 'Store the directory (LDAP) configuration',
    description:
      'Replaces the `cservice.ldapconfig` record. `ldap_uri` or the obsolete `host` and `port` name the directory. ' +
      '`admin_passwd` is stored encrypted and answered masked; leave it out (or send it masked) to keep the stored one. ' +
      'Requires the administrator role (`[auth] admin_role`).',
    tags,
    requestSchema: ldapRecordInputSchema,
    responses: {
      200: { description: 'The stored record, password masked', schema: objectEnvelopeSchema(ldapRecordSchema) },
      400: { description: 'Invalid record: the description names the field', schema: errorSchema },
      403: { description: 'The user is not an administrator', schema: errorSchema },
    },
    // Who may, then what the body is, before its fields are checked.
    preValidation: (ctx) => {
      policy(ctx).assertAdministrator(ctx.state.user, 'Changing the directory configuration');
      const body = requestBody(ctx);
      if (typeof body !== 'object' || body === null || Array.isArray(body)) throw new HttpError(400, 'the body must be the directory configuration record (a JSON object)');
    },
    handler: async (ctx, { body }) => objectEnvelope(await repository(ctx).save(body)),
  }),
  {
    method: 'GET',
    path,
    summary: 'Read the directory (LDAP) configuration',
    description: 'The stored record with `admin_passwd` masked; `data` is empty when none is stored.',
    tags,
    responses: { 200: { description: 'The stored record, password masked', schema: objectEnvelopeSchema(ldapRecordSchema) } },
    handler: async (ctx) => objectEnvelope(await repository(ctx).get()),
  },
];
