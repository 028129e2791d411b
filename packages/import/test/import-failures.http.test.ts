// Every way an import fails, through the HTTP API: the status says `failed` with the reason, and the graph is
// exactly as it was.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '@vigie/kernel-testing';
import { startImportTest, type ImportTestKernel } from './helpers.js';

let t: ImportTestKernel;
let before: Record<string, unknown>[];

beforeAll(async () => {
  t = await startImportTest({ clock: new ManualClock(new Date(2019, 8, 5, 5, 6, 40)) });
  const seeded = await t.run({
    cis: [
      { _id: 'db/host', type: 'resource', action: 'create', infos: { site: { name: 'site', description: 'where', value: 'paris' } } },
      { _id: 'host', type: 'component', action: 'create' },
      { _id: 'nagios/poller', type: 'connector', action: 'create' },
      { _id: 'app', type: 'watcher', action: 'create' },
    ],
    links: [
      { from: 'db/host', to: 'host', action: 'create' },
      { from: 'host', to: 'nagios/poller', action: 'create' },
      { from: 'db/host', to: 'app', action: 'create' },
    ],
  });
  expect(seeded.status).toBe('done');
  before = await t.entities();
  expect(before).toHaveLength(4);
});

afterAll(() => t.stop());

async function expectFailure(id: string, info: string | RegExp): Promise<void> {
  const status = await t.finished(id);
  expect(status).toEqual({
    _id: id,
    creation: 'Thu Sep  5 05:06:40 2019',
    status: 'failed',
    exec_time: '00:00:00',
    info: typeof info === 'string' ? info : expect.stringMatching(info),
  });
  expect(await t.entities()).toEqual(before);
}

const shape = '{"json": {"cis": [...], "links": [...]}}';

describe('a body without json', () => {
  // REFERENCE §7.1: the original reads the default document '{}' and the import ends done with 0/0.
  it.each([
    ['a JSON body', '{"cis": []}', 'application/json'],
    ['a form', 'cis=%5B%5D', 'application/x-www-form-urlencoded'],
  ])('%s ends done with nothing changed', async (_case, body, contentType) => {
    const status = await t.finished(await t.submitRaw(body, contentType));
    expect(status).toMatchObject({ status: 'done', stats: { updated: 0, deleted: 0 } });
    expect(await t.entities()).toEqual(before);
  });
});

describe('a malformed body', () => {
  it.each([
    ['JSON that does not parse', '{"json": {"cis": [}', 'application/json', /^the request body is not valid JSON: .+/],
    ['JSON that is not an object', '[1]', 'application/json', `the request body must be a JSON object ${shape}`],
    ['a json field holding JSON text that does not parse', JSON.stringify({ json: '{"cis": [' }), 'application/json', /^the field "json" is not valid JSON: .+/],
    ['a form whose json does not parse', 'json=%7B%22cis', 'application/x-www-form-urlencoded', /^the field "json" is not valid JSON: .+/],
  ])('fails: %s', async (_case, body, contentType, info) => {
    await expectFailure(await t.submitRaw(body, contentType), info);
  });
});

describe('a malformed document', () => {
  const ci = (fields: Record<string, unknown>) => ({ cis: [{ _id: 'new', type: 'resource', action: 'create', ...fields }] });
  const link = (fields: Record<string, unknown>) => ({ links: [{ _id: 'l1', from: 'db/host', to: 'nagios/poller', action: 'create', ...fields }] });
  const naming = '(names may not be empty, start with $, contain a dot or be __proto__)';

  it.each([
    ['json is not an object', 5, `the import document must be an object with the arrays cis and links (expected ${shape})`],
    ['neither cis nor links is a list', { cis: {}, links: {} }, 'CIS and LINKS should be an array.'],
    ['cis is not a list', { cis: 'x' }, 'CIS should be an array.'],
    ['links is not a list', { cis: [], links: 7 }, 'LINKS should be an array.'],
    ['an element of cis is not an object', { cis: [5] }, 'cis[0]: an element must be an object'],
    ['no _id', { cis: [{ type: 'resource', action: 'create' }] }, 'cis[0]: _id must be a non-empty string'],
    ['an empty _id', ci({ _id: '' }), 'cis[0]: _id must be a non-empty string'],
    ['no action', { cis: [{ _id: 'new', type: 'resource' }] }, 'cis[0] (_id "new"): action must be one of create, set, update, delete, enable, disable (missing)'],
    ['an unknown action', ci({ action: 'upsert' }), 'cis[0] (_id "new"): action must be one of create, set, update, delete, enable, disable (got "upsert")'],
    ['create without type', { cis: [{ _id: 'new', action: 'create' }] }, 'cis[0] (_id "new", action create): type is required (one of resource, component, connector, watcher)'],
    ['set without type', { cis: [{ _id: 'host', action: 'set' }] }, 'cis[0] (_id "host", action set): type is required (one of resource, component, connector, watcher)'],
    ['an unknown type, even on delete', { cis: [{ _id: 'host', type: 'service', action: 'delete' }] }, 'cis[0] (_id "host", action delete): type must be one of resource, component, connector, watcher (got "service")'],
    ['a name that is not a string', ci({ name: 5 }), 'cis[0] (_id "new", action create): name must be a string'],
    ['a name over 1 KiB', ci({ name: 'n'.repeat(1025) }), 'cis[0] (_id "new", action create): name must be at most 1024 characters'],
    ['an _id over 255 characters', { cis: [{ _id: 'i'.repeat(256), type: 'resource', action: 'create' }] }, 'cis[0]: _id must be at most 255 characters'],
    ['enabled not a boolean', ci({ enabled: 'yes' }), 'cis[0] (_id "new", action create): enabled must be true or false'],
    ['measurements not strings', ci({ measurements: [1] }), 'cis[0] (_id "new", action create): measurements must be a list of strings'],
    ['infos not an object', ci({ infos: [] }), 'cis[0] (_id "new", action create): infos must be an object'],
    ['an infos key with a dot', ci({ infos: { 'a.b': { value: 1 } } }), `cis[0] (_id "new", action create): infos key name "a.b" is not allowed ${naming}`],
    ['a field name starting with $', ci({ $set: 1 }), `cis[0] (_id "new", action create): field name "$set" is not allowed ${naming}`],
    ['impact not a list', ci({ impact: 'host' }), 'cis[0] (_id "new", action create): impact must be a list of non-empty entity ids of at most 255 characters'],
    ['an entity impacting itself', ci({ impact: ['new'] }), 'cis[0] (_id "new", action create): an entity cannot impact itself'],
    ['an entity depending on itself', ci({ depends: ['new'] }), 'cis[0] (_id "new", action create): an entity cannot depend on itself'],
    ['enable_history not integers', ci({ enable_history: ['x'] }), 'cis[0] (_id "new", action create): enable_history must be a list of integers'],
    ['action_properties not an object', ci({ action_properties: 5 }), 'cis[0] (_id "new", action create): action_properties must be an object'],
    ['enable without action_properties', { cis: [{ _id: 'host', action: 'enable' }] }, 'cis[0] (_id "host", action enable): action_properties.enable is required (an integer timestamp or a list of them)'],
    ['enable with a timestamp that is not an integer', { cis: [{ _id: 'host', action: 'enable', action_properties: { enable: 'now' } }] }, 'cis[0] (_id "host", action enable): action_properties.enable must be an integer timestamp or a list of them (got "now")'],
    ['disable without its own property', { cis: [{ _id: 'host', action: 'disable', action_properties: { enable: 1 } }] }, 'cis[0] (_id "host", action disable): action_properties.disable is required (an integer timestamp or a list of them)'],
    ['an element of links is not an object', { links: ['x'] }, 'links[0]: an element must be an object'],
    ['a link without action', { links: [{ from: 'db/host', to: 'host' }] }, 'links[0]: action is required (create or delete)'],
    ['a link action of entities', link({ action: 'update' }), 'links[0] (_id "l1"): action update is not supported for links (create or delete)'],
    ['an unknown link action', link({ action: 'attach' }), 'links[0] (_id "l1"): action must be create or delete (got "attach")'],
    ['a link without from', link({ from: undefined }), 'links[0] (_id "l1", action create): from must be an entity id or a non-empty list of entity ids'],
    ['a link from an empty list', link({ from: [] }), 'links[0] (_id "l1", action create): from must be an entity id or a non-empty list of entity ids'],
    ['a link to nothing', link({ to: '' }), 'links[0] (_id "l1", action create): to must be an entity id'],
    ['a link from an entity to itself', link({ from: ['host', 'nagios/poller'] }), 'links[0] (_id "l1", action create): an entity cannot impact itself ("nagios/poller" is both from and to)'],
  ])('fails: %s', async (_case, document, info) => {
    await expectFailure(await t.submit(document), info);
  });
});

describe('an action that cannot apply', () => {
  // Each starts with actions that succeed, so the failure also shows they were not applied.
  const create = { _id: 'new', type: 'resource', action: 'create', impact: ['host'] };
  const alsoLink = { from: 'db/host', to: 'nagios/poller', action: 'create' };

  it.each([
    ['update of a missing entity', { cis: [create, { _id: 'nope', action: 'update', name: 'x' }] }, 'cis[1] (_id "nope", action update): no entity with this id exists'],
    ['delete of a missing entity', { cis: [create, { _id: 'nope', action: 'delete' }] }, 'cis[1] (_id "nope", action delete): no entity with this id exists'],
    ['enable of a missing entity', { cis: [create, { _id: 'nope', action: 'enable', action_properties: { enable: 1 } }] }, 'cis[1] (_id "nope", action enable): no entity with this id exists'],
    ['disable of a missing entity', { cis: [create, { _id: 'nope', action: 'disable', action_properties: { disable: 1 } }] }, 'cis[1] (_id "nope", action disable): no entity with this id exists'],
    ['a link from a missing entity', { cis: [create], links: [alsoLink, { _id: 'l2', from: ['host', 'nope'], to: 'app', action: 'create' }] }, 'links[1] (_id "l2", action create): entity "nope" (from) does not exist'],
    ['a link to a missing entity', { cis: [create], links: [alsoLink, { _id: 'l2', from: 'host', to: 'nope', action: 'create' }] }, 'links[1] (_id "l2", action create): entity "nope" (to) does not exist'],
    ['deleting a link to a missing entity', { links: [{ _id: 'l2', from: 'nope', to: 'host', action: 'delete' }] }, 'links[0] (_id "l2", action delete): entity "nope" (from) does not exist'],
    ['deleting a link that is not there', { cis: [create], links: [{ _id: 'l2', from: 'nagios/poller', to: 'host', action: 'delete' }] }, 'links[0] (_id "l2", action delete): "nagios/poller" does not impact "host", there is no link to delete'],
    ['a link to an entity deleted by the same import', { cis: [{ _id: 'app', action: 'delete' }], links: [{ from: 'host', to: 'app', action: 'create' }] }, 'links[0] (action create): entity "app" (to) does not exist'],
    [
      'changing then deleting an entity',
      { cis: [{ _id: 'host', action: 'update', name: 'h' }, { _id: 'host', action: 'delete' }] },
      'cis[1] (_id "host", action delete): The entity host to be deleted is updated in the same import. Update aborted. (see also cis[0] (_id "host", action update))',
    ],
    [
      'deleting then creating an entity',
      { cis: [{ _id: 'host', action: 'delete' }, { _id: 'host', type: 'component', action: 'create' }] },
      'cis[1] (_id "host", action create): The entity host to be deleted is updated in the same import. Update aborted. (see also cis[0] (_id "host", action delete))',
    ],
    [
      'updating an entity an earlier element of the same import created (REFERENCE §7.2: update needs a stored entity)',
      { cis: [{ _id: 'fresh', type: 'resource', action: 'create' }, { _id: 'fresh', action: 'update', name: 'Fresh' }] },
      'cis[1] (_id "fresh", action update): The ci of id fresh does not match any existing entity.',
    ],
    [
      'impact naming an entity that exists nowhere',
      { cis: [{ _id: 'new', type: 'resource', action: 'create', impact: ['host', 'ghost'] }] },
      'cis[0] (_id "new", action create): impact lists "ghost", which does not exist and is not created by this import',
    ],
    [
      'depends naming an entity the import deletes',
      { cis: [{ _id: 'host', type: 'component', action: 'set', depends: ['db/host', 'new'] }, { _id: 'app', action: 'delete' }, { _id: 'new', type: 'resource', action: 'create' }, { _id: 'new2', type: 'resource', action: 'set', depends: ['app'] }] },
      'cis[3] (_id "new2", action set): depends lists "app", which does not exist and is not created by this import',
    ],
  ])('fails: %s', async (_case, document, info) => {
    await expectFailure(await t.submit(document), info);
  });
});
