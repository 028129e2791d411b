import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { contextGraphFeature } from '@vigie/context-graph';
import { eventsFeature } from '@vigie/events';
import { check, recordingFeature } from '@vigie/events/testing';
import { createLogger } from '@vigie/kernel';
import { startFeatureTest, type TestKernel } from '@vigie/testkit';
import { eventFilterFeature } from '../src/index.js';
import { throughPipeline } from './fixtures/through-pipeline.js';

// The rules applied to events sent through the real pipeline; a stage after the entities stage shows what comes out.
let t: TestKernel;
let recorder: ReturnType<typeof recordingFeature>;
let lines: string[];

beforeEach(async () => {
  recorder = recordingFeature([{ name: 'out', order: 300 }]);
  lines = [];
  t = await startFeatureTest({
    features: [eventsFeature, contextGraphFeature, eventFilterFeature, recorder.feature],
    logger: createLogger({ level: 'warn', destination: { write: (line: string) => void lines.push(line) } }),
  });
});
afterEach(() => t.stop());

async function rule(body: Record<string, unknown>): Promise<string> {
  const res = await t.post('/api/v2/eventfilter/rules', body);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return (res.body as { _id: string })._id;
}

/** Sends events and returns those that came out of the pipeline, in the order they were sent. */
const through = (...events: Record<string, unknown>[]) => throughPipeline(t, recorder, ...events);

const entity = async (id: string) => (await t.get(`/api/v2/entities/${encodeURIComponent(id)}`)).body as Record<string, unknown>;

describe('event-filter rules applied to events', () => {
  it('drops the events a drop rule matches, in priority order with break', async () => {
    await rule({ _id: 'drop-test', type: 'drop', pattern: { component: { regex_match: '^test-' } }, priority: 5 });
    await rule({ _id: 'keep-test-keep', type: 'break', pattern: { component: 'test-keep' }, priority: 1 });
    const out = await through(check({ component: 'test-a' }), check({ component: 'test-keep' }), check({ component: 'prod' }));
    expect(out.map((e) => e.component)).toEqual(['test-keep', 'prod']);
  });

  it('applies enrichment rules by ascending priority; break stops the rules; disabled rules do nothing', async () => {
    await rule({ type: 'enrichment', pattern: { resource: 'disk' }, actions: [{ type: 'set_field', name: 'Output', value: 'second' }], priority: 20 });
    await rule({ type: 'enrichment', pattern: { component: 'host' }, actions: [{ type: 'set_field', name: 'Output', value: 'first' }, { type: 'set_field', name: 'seen_first', value: true }], priority: 10 });
    await rule({ type: 'break', patterns: [{ resource: 'cpu' }, { resource: 'mem' }], priority: 15 });
    await rule({ type: 'enrichment', pattern: {}, actions: [{ type: 'set_field', name: 'State', value: 0 }], enabled: false });
    const out = await through(check(), check({ resource: 'cpu' }));
    expect(out[0]).toMatchObject({ output: 'second', seen_first: true, state: 2 });
    expect(out[1]).toMatchObject({ output: 'first', seen_first: true, resource: 'cpu' });
  });

  it('a field an enrichment sets decides which later rules match, and no longer matches rules on its old value', async () => {
    await rule({ type: 'enrichment', pattern: { connector: 'nagios' }, actions: [{ type: 'set_field', name: 'Connector', value: 'renamed' }], priority: 1 });
    await rule({ type: 'enrichment', pattern: { connector: 'nagios' }, actions: [{ type: 'set_field', name: 'Output', value: 'old name' }], priority: 2 });
    await rule({ type: 'enrichment', pattern: { connector: 'renamed', output: { regex_match: '^full' } }, actions: [{ type: 'set_field', name: 'Output', value: 'new name' }], priority: 3 });
    await rule({ type: 'drop', pattern: { component: { regex_match: '^host-to-drop\\d' } }, priority: 4 });
    await rule({ type: 'enrichment', pattern: { component: 'host' }, actions: [{ type: 'set_field', name: 'Component', value: 'host-to-drop1' }], priority: 0 });
    const out = await through(check({ connector: 'nagios', output: 'full disk', component: 'other' }), check({ connector: 'nagios', output: 'full disk' }));
    expect(out).toEqual([expect.objectContaining({ connector: 'renamed', output: 'new name', component: 'other' })]);
  });

  it('set_field converts values to the Go field’s type and keeps other names as custom fields', async () => {
    await rule({
      type: 'enrichment',
      pattern: { output: { regex_match: 'full' } },
      actions: [
        { type: 'set_field', name: 'State', value: '3' },
        { type: 'set_field', name: 'ConnectorName', value: 'renamed' },
        { type: 'set_field', name: 'Debug', value: 'false' },
        { type: 'set_field', name: 'customer', value: { id: 7 } },
      ],
    });
    const [out] = await through(check());
    expect(out).toMatchObject({ state: 3, connector_name: 'renamed', debug: false, customer: { id: 7 } });
  });

  it('set_field_from_template and copy read .Event, .RegexMatch and .ExternalData', async () => {
    await rule({
      type: 'enrichment',
      pattern: { output: { regex_match: 'load (?P<load>\\d+) on (?P<cpu>cpu\\d)' }, site: { regex_match: '(?P<city>[a-z]+)-\\d' } },
      actions: [
        { type: 'set_field_from_template', name: 'Output', value: '{{.Event.Component}}: {{.RegexMatch.Output.load}}% on {{.RegexMatch.Output.cpu}} in {{.RegexMatch.ExtraInfos.site.city}}' },
        { type: 'set_field_from_template', name: 'State', value: '{{if gt (len .RegexMatch.Output.load) 1}}3{{else}}1{{end}}' },
        { type: 'copy', from: 'RegexMatch.Output.cpu', to: 'Resource' },
        { type: 'copy', from: 'Event.Connector', to: 'origin' },
      ],
    });
    const [out] = await through(check({ output: 'load 97 on cpu2', site: 'paris-1' }));
    expect(out).toMatchObject({ output: 'host: 97% on cpu2 in paris', state: 3, resource: 'cpu2', origin: 'nagios' });
  });

  it('templates and copies reading only Go fields see the event as the actions left it, with or without a rule reading all of .Event', async () => {
    const fieldRules = [
      { type: 'enrichment', pattern: { component: 'host' }, priority: 1, actions: [{ type: 'set_field_from_template', name: 'Ticket', value: 't-{{.Event.Component}}-{{.Event.State}}' }] },
      {
        type: 'enrichment',
        pattern: { output: { regex_match: '(?P<word>[a-z]+) disk' } },
        priority: 2,
        actions: [
          { type: 'set_field_from_template', name: 'summary', value: '{{.Event.Ticket}} {{.RegexMatch.Output.word}} {{.Event.Author}}' },
          { type: 'set_field', name: 'Author', value: 'filter' },
          { type: 'copy', from: 'Event.Author', to: 'copied_author' },
          { type: 'copy', from: 'Event.Ticket', to: 'Output' },
          { type: 'set_field_from_template', name: 'after', value: '{{.Event.Output}}|{{.Event.Author}}|{{.Event.Missing}}' },
        ],
      },
    ];
    const expected = { ticket: 't-host-2', summary: 't-host-2 full <no value>', author: 'filter', copied_author: 'filter', output: 't-host-2', after: 't-host-2|filter|<no value>' };
    for (const body of fieldRules) await rule(body);
    const [fieldsOnly] = await through(check({ output: 'full disk' }));
    expect(fieldsOnly).toMatchObject(expected);
    await rule({ type: 'enrichment', pattern: { component: 'host' }, priority: 3, actions: [{ type: 'set_field_from_template', name: 'whole', value: '{{json .Event.Ticket}} {{len .Event}}' }] });
    const [withWhole] = await through(check({ output: 'full disk' }));
    expect(withWhole).toMatchObject({ ...expected, whole: expect.stringMatching(/^"t-host-2" \d+$/) });
  });

  it('writes entity infos with set_entity_info, set_entity_info_from_template and copy_to_entity_info on the loaded entity', async () => {
    await through(check()); // creates disk/host
    await rule({
      type: 'enrichment',
      pattern: { resource: 'disk' },
      external_data: { entity: { type: 'entity' } },
      actions: [
        { type: 'set_entity_info', name: 'team', description: 'owner team', value: 'storage' },
        { type: 'set_entity_info_from_template', name: 'summary', value: '{{.ExternalData.entity.Name}} of {{.Event.Component}}' },
        { type: 'copy_to_entity_info', name: 'last_output', from: 'Event.Output' },
        { type: 'set_field_from_template', name: 'team', value: '{{.ExternalData.entity.Infos.team.Value}}' },
      ],
    });
    const [out] = await through(check());
    expect(out?.team).toBe('storage');
    expect((await entity('disk/host')).infos).toEqual({
      team: { name: 'team', description: 'owner team', value: 'storage' },
      summary: { name: 'summary', description: '', value: 'disk of host' },
      last_output: { name: 'last_output', description: '', value: 'disk full' },
    });
  });

  it('set_field names that Object.prototype holds are custom fields; __proto__ fails the action', async () => {
    await rule({ type: 'enrichment', pattern: { resource: 'disk' }, actions: [{ type: 'set_field', name: 'constructor', value: 'x' }, { type: 'set_field', name: 'toString', value: 'y' }] });
    await rule({ type: 'enrichment', pattern: { resource: 'cpu' }, actions: [{ type: 'set_field', name: '__proto__', value: { polluted: true } }], on_failure: 'pass' });
    const [disk, cpu] = await through(check(), check({ resource: 'cpu' }));
    expect(disk).toMatchObject({ constructor: 'x', toString: 'y' });
    expect(Object.getPrototypeOf(cpu)).toBe(Object.prototype);
    expect(cpu).not.toHaveProperty('polluted');
  });

  it('follows on_failure when an action fails, keeping what the actions before it changed', async () => {
    await rule({
      type: 'enrichment',
      pattern: { resource: 'disk' },
      actions: [{ type: 'set_field', name: 'Output', value: 'changed' }, { type: 'set_field', name: 'State', value: 'high' }, { type: 'set_field', name: 'never', value: 1 }],
      on_failure: 'pass',
    });
    await rule({ type: 'enrichment', pattern: { resource: 'cpu' }, actions: [{ type: 'set_entity_info', name: 'x', value: 1 }], on_failure: 'drop', on_success: 'pass' });
    await rule({ type: 'enrichment', pattern: { resource: 'mem' }, actions: [{ type: 'set_field', name: 'Output', value: 'ok' }], on_success: 'drop' });
    const out = await through(check(), check({ resource: 'cpu' }), check({ resource: 'mem' }));
    expect(out).toHaveLength(1);
    expect(out[0]).toMatchObject({ output: 'changed', state: 2 });
    expect(out[0]).not.toHaveProperty('never');
  });

  it('drops events the rules left invalid', async () => {
    await rule({ type: 'enrichment', pattern: { resource: 'disk' }, actions: [{ type: 'set_field', name: 'Connector', value: '' }] });
    expect(await through(check(), check({ resource: 'cpu' }))).toMatchObject([{ resource: 'cpu' }]);
  });

  it('skips a rule it cannot apply with a warning, and applies the others', async () => {
    await rule({ _id: 'mongo-source', type: 'enrichment', pattern: {}, external_data: { x: { type: 'mongo', collection: 'c' } }, actions: [{ type: 'set_field', name: 'Output', value: 'x' }] });
    await rule({ _id: 'bad-template', type: 'enrichment', pattern: {}, actions: [{ type: 'set_field_from_template', name: 'Output', value: '{{.Event.Output' }] });
    await rule({ _id: 'good', type: 'enrichment', pattern: {}, actions: [{ type: 'set_field', name: 'flag', value: 'set' }] });
    const [out] = await through(check());
    expect(out).toMatchObject({ output: 'disk full', flag: 'set' });
    const warnings = lines.map((l) => JSON.parse(l) as { rule?: string; msg: string }).filter((l) => l.msg.startsWith('event-filter rule skipped'));
    expect(warnings.map((w) => w.rule).sort()).toEqual(['bad-template', 'mongo-source']);
  });

  it('applies a rule created, changed or deleted through the API to the next event', async () => {
    const id = await rule({ type: 'enrichment', pattern: { resource: 'disk' }, actions: [{ type: 'set_field', name: 'Output', value: 'v1' }] });
    expect((await through(check()))[0]?.output).toBe('v1');
    expect((await t.put(`/api/v2/eventfilter/rules/${id}`, { type: 'enrichment', pattern: { resource: 'disk' }, actions: [{ type: 'set_field', name: 'Output', value: 'v2' }] })).status).toBe(200);
    expect((await through(check()))[0]?.output).toBe('v2');
    expect((await t.delete(`/api/v2/eventfilter/rules/${id}`)).status).toBe(200);
    expect((await through(check()))[0]?.output).toBe('disk full');
  });

  it('matches current_entity against the event’s entity', async () => {
    await through(check());
    await rule({ type: 'drop', pattern: { current_entity: { type: 'resource', name: 'disk' } } });
    expect(await through(check(), check({ resource: 'cpu' }))).toMatchObject([{ resource: 'cpu' }]);
  });
});
