import { defineRoute, type RouteDefinition, type VigieContext } from '@vigie/kernel';
import { pathParam } from '@vigie/input';
import { RoleAdministration } from './role-administration.js';
import { RoleCatalog } from './roles.js';
import {
  accountUpdateSchema,
  apiKeyCreateSchema,
  apiKeySchema,
  createdApiKeySchema,
  roleBodySchema,
  roleCreateSchema,
  roleSchema,
  userCreateSchema,
  userPageSchema,
  userSchema,
  userUpdateSchema,
  usersQuerySchema,
} from './schemas.js';
import { UserAdministration } from './user-administration.js';
import { array } from 'yup';

const users = (ctx: VigieContext) => ctx.state.scope.resolve(UserAdministration);
const roles = (ctx: VigieContext) => ctx.state.scope.resolve(RoleAdministration);
const me = (ctx: VigieContext) => ctx.state.user?.id ?? '';
const userTags = ['users'];
const roleTags = ['roles'];
const keyTags = ['api-keys'];

/** Users, roles and API keys over HTTP (the command line goes through the same services). */
export const administrationRoutes: RouteDefinition[] = [
  defineRoute({
    method: 'GET',
    path: '/api/v2/users',
    right: 'users:admin',
    summary: 'List users',
    description: 'By name; `search` finds a text (any case) in the name, first name, last name or mail. Passwords are never shown.',
    tags: userTags,
    querySchema: usersQuerySchema,
    responses: { 200: { description: 'One page of users', schema: userPageSchema } },
    handler: (ctx, { query }) => users(ctx).findUsers(query),
  }),
  defineRoute({
    method: 'POST',
    path: '/api/v2/users',
    right: 'users:admin',
    summary: 'Create a local user',
    description: 'The password (8 characters at least) is stored as a scrypt hash. Every role must exist.',
    tags: userTags,
    requestSchema: userCreateSchema,
    responses: { 200: { description: 'The user', schema: userSchema }, 400: { description: 'Invalid user' }, 409: { description: 'The name is taken' } },
    handler: (ctx, { body }) => users(ctx).addUser(body),
  }),
  {
    method: 'GET',
    path: '/api/v2/users/:name',
    right: 'users:admin',
    summary: 'One user',
    tags: userTags,
    responses: { 200: { description: 'The user', schema: userSchema }, 404: { description: '`no user <name>`' } },
    handler: (ctx) => users(ctx).getUser(pathParam(ctx, 'name')),
  },
  defineRoute({
    method: 'PUT',
    path: '/api/v2/users/:name',
    right: 'users:admin',
    summary: 'Change a user: roles, enabled, password, contact',
    description:
      'Fields left out are kept. `enabled: false` disables the account: its sessions end and its credentials and API keys are refused ' +
      'from the next request on, on every node. The last enabled administrator can be neither disabled nor demoted (409).',
    tags: userTags,
    requestSchema: userUpdateSchema,
    responses: {
      200: { description: 'The user', schema: userSchema },
      400: { description: 'Invalid change' },
      404: { description: '`no user <name>`' },
      409: { description: 'The last administrator, or a password for an external user' },
    },
    handler: (ctx, { body }) => users(ctx).updateUser(pathParam(ctx, 'name'), body),
  }),
  {
    method: 'DELETE',
    path: '/api/v2/users/:name',
    right: 'users:admin',
    summary: 'Delete a user',
    description: 'Its sessions and API keys go with it. The last enabled administrator cannot be deleted (409).',
    tags: userTags,
    responses: { 204: { description: 'Deleted' }, 404: { description: '`no user <name>`' }, 409: { description: 'The last administrator' } },
    handler: async (ctx) => {
      await users(ctx).deleteUser(pathParam(ctx, 'name'));
      ctx.status = 204;
    },
  },
  {
    method: 'GET',
    path: '/api/v2/users/:name/api-keys',
    right: 'users:admin',
    summary: "A user's API keys",
    tags: userTags,
    responses: { 200: { description: 'The keys (never the secrets)', schema: array(apiKeySchema) }, 404: { description: '`no user <name>`' } },
    handler: async (ctx) => {
      const name = pathParam(ctx, 'name');
      await users(ctx).getUser(name);
      return users(ctx).listApiKeys(name);
    },
  },
  {
    method: 'DELETE',
    path: '/api/v2/users/:name/api-keys/:id',
    right: 'users:admin',
    summary: "Revoke one of a user's API keys",
    tags: userTags,
    responses: { 204: { description: 'Revoked' }, 404: { description: '`no API key <id>`' } },
    handler: async (ctx) => {
      await users(ctx).revokeApiKey(pathParam(ctx, 'id'), pathParam(ctx, 'name'));
      ctx.status = 204;
    },
  },
  defineRoute({
    method: 'PUT',
    path: '/api/v2/account/me',
    right: 'account:own',
    summary: 'Change your own name or password',
    description: 'Needs `current_password`. Changing the password ends your other sessions (and this one: log in again). Accounts of identity providers are changed there (409).',
    tags: ['auth'],
    requestSchema: accountUpdateSchema,
    responses: {
      200: { description: 'Your account', schema: userSchema },
      400: { description: 'Invalid change, or `the current password is wrong`' },
      409: { description: 'An account of an identity provider' },
    },
    handler: (ctx, { body }) => users(ctx).updateOwnAccount(me(ctx), body),
  }),
  {
    method: 'GET',
    path: '/api/v2/api-keys',
    right: 'account:own',
    summary: 'Your API keys',
    description: 'Each key shows its first characters (`prefix`), never the secret.',
    tags: keyTags,
    responses: { 200: { description: 'Your keys', schema: array(apiKeySchema) } },
    handler: (ctx) => users(ctx).listApiKeys(me(ctx)),
  },
  defineRoute({
    method: 'POST',
    path: '/api/v2/api-keys',
    right: 'account:own',
    summary: 'Create an API key acting as you',
    description:
      'The answer holds the key, shown only this once. `expires` (epoch seconds) ends it; `rights` narrows it to some of your rights ' +
      '(checked again at each use: a key never exceeds its owner).',
    tags: keyTags,
    requestSchema: apiKeyCreateSchema,
    responses: { 200: { description: 'The key and its secret', schema: createdApiKeySchema }, 400: { description: 'A right you do not hold, or a past expiry' } },
    handler: async (ctx, { body }) => {
      const { key, view } = await users(ctx).createApiKey(me(ctx), body);
      return { ...view, key };
    },
  }),
  {
    method: 'DELETE',
    path: '/api/v2/api-keys/:id',
    right: 'account:own',
    summary: 'Revoke one of your API keys',
    description: 'Refused from the next request on, on every node.',
    tags: keyTags,
    responses: { 204: { description: 'Revoked' }, 404: { description: '`no API key <id>`' } },
    handler: async (ctx) => {
      await users(ctx).revokeApiKey(pathParam(ctx, 'id'), me(ctx));
      ctx.status = 204;
    },
  },
  {
    method: 'GET',
    path: '/api/v2/roles',
    right: 'roles:admin',
    summary: 'List roles',
    description: 'The built-in roles (`admin`, `operator`, `viewer`) first, then the custom ones by name. `*` stands for every right.',
    tags: roleTags,
    responses: { 200: { description: 'The roles', schema: array(roleSchema) } },
    handler: (ctx) => ctx.state.scope.resolve(RoleCatalog).list(),
  },
  {
    method: 'GET',
    path: '/api/v2/rights',
    right: 'roles:admin',
    summary: 'Every right a route of this server needs',
    tags: roleTags,
    responses: { 200: { description: 'The rights, sorted' } },
    handler: (ctx) => ctx.state.scope.resolve(RoleCatalog).knownRights(),
  },
  defineRoute({
    method: 'POST',
    path: '/api/v2/roles',
    right: 'roles:admin',
    summary: 'Create a role',
    description: 'Its rights must be rights of this server (`GET /api/v2/rights`).',
    tags: roleTags,
    requestSchema: roleCreateSchema,
    responses: { 200: { description: 'The role', schema: roleSchema }, 400: { description: 'Invalid role, or a built-in name' }, 409: { description: 'The name is taken' } },
    handler: (ctx, { body }) => roles(ctx).create(body),
  }),
  {
    method: 'GET',
    path: '/api/v2/roles/:name',
    right: 'roles:admin',
    summary: 'One role',
    tags: roleTags,
    responses: { 200: { description: 'The role', schema: roleSchema }, 404: { description: '`no role <name>`' } },
    handler: (ctx) => roles(ctx).get(pathParam(ctx, 'name')),
  },
  defineRoute({
    method: 'PUT',
    path: '/api/v2/roles/:name',
    right: 'roles:admin',
    summary: 'Change a custom role',
    description: 'Takes effect at the next request of every user holding it. Built-in roles are read-only (400).',
    tags: roleTags,
    requestSchema: roleBodySchema,
    responses: { 200: { description: 'The role', schema: roleSchema }, 400: { description: 'Invalid role, or a built-in one' }, 404: { description: '`no role <name>`' } },
    handler: (ctx, { body }) => roles(ctx).update(pathParam(ctx, 'name'), body),
  }),
  {
    method: 'DELETE',
    path: '/api/v2/roles/:name',
    right: 'roles:admin',
    summary: 'Delete a custom role',
    description: 'Refused while users hold it (409), and for built-in roles (400).',
    tags: roleTags,
    responses: { 204: { description: 'Deleted' }, 400: { description: 'A built-in role' }, 404: { description: '`no role <name>`' }, 409: { description: 'Users hold it' } },
    handler: async (ctx) => {
      await roles(ctx).delete(pathParam(ctx, 'name'));
      ctx.status = 204;
    },
  },
];
