import { describe, expect, it } from 'vitest';
import { compile, parseTemplate } from './index.js';

/** An alarm and its entity as webhooks, event-filter actions and dynamic infos receive them. */
function alarm(state: number, overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    Alarm: {
      Value: {
        Component: 'db-01',
        Resource: 'disk/var',
        Connector: 'centreon',
        State: { Value: state },
        Output: 'CRIT: /var is 97% full\n"urgent"',
        Tags: ['prod', 'storage'],
        CreationDate: new Date(Date.UTC(2024, 5, 1, 12, 30, 0)),
        Ticket: null,
        ...overrides,
      },
    },
    Entity: { ID: 'disk/var/db-01', Infos: { site: { Value: 'Paris' }, 'owner-team': { Value: 'dba' } } },
  };
}

describe('webhook payloads', () => {
  const payload = compile('{"component":"{{.Alarm.Value.Component}}","state":{{.Alarm.Value.State.Value}}{{if eq .Alarm.Value.State.Value 3}},"critical":true{{end}}}');

  it('renders the JSON body, with the conditional member', () => {
    expect(JSON.parse(payload.render(alarm(3)))).toEqual({ component: 'db-01', state: 3, critical: true });
    expect(JSON.parse(payload.render(alarm(1)))).toEqual({ component: 'db-01', state: 1 });
  });

  it('keeps the body valid JSON for any text with json and json_unquote', () => {
    const body = compile(
      '{"output":{{.Alarm.Value.Output | json}},"summary":"{{.Alarm.Value.Component}}: {{.Alarm.Value.Output | json_unquote}}","tags":{{json .Alarm.Value.Tags}}}',
    );
    expect(JSON.parse(body.render(alarm(3)))).toEqual({
      output: 'CRIT: /var is 97% full\n"urgent"',
      summary: 'db-01: CRIT: /var is 97% full\n"urgent"',
      tags: ['prod', 'storage'],
    });
  });

  it('builds JSON arrays with range and an index-based separator', () => {
    const body = compile('[{{range $i, $tag := .Alarm.Value.Tags}}{{if $i}},{{end}}{"name":{{json $tag}}}{{end}}]');
    expect(JSON.parse(body.render(alarm(2)))).toEqual([{ name: 'prod' }, { name: 'storage' }]);
  });

  it('writes dates as formatted text or epoch seconds', () => {
    const body = compile('{"at":"{{.Alarm.Value.CreationDate | formattedDate "2006-01-02T15:04:05Z07:00"}}","ts":{{.Alarm.Value.CreationDate.Unix}}}');
    expect(JSON.parse(body.render(alarm(2)))).toEqual({ at: '2024-06-01T12:30:00Z', ts: 1717245000 });
  });

  it('falls back on defaults for missing infos and null fields', () => {
    const body = compile(
      '{"site":"{{with .Entity.Infos.site}}{{.Value}}{{else}}unknown{{end}}","room":"{{with .Entity.Infos.room}}{{.Value}}{{else}}unknown{{end}}","team":"{{(index .Entity.Infos "owner-team").Value}}","ticket":"{{or .Alarm.Value.Ticket "none"}}"}',
    );
    expect(JSON.parse(body.render(alarm(2)))).toEqual({ site: 'Paris', room: 'unknown', team: 'dba', ticket: 'none' });
  });

  it('renders the request URL with query escaping', () => {
    const url = compile('https://itsm.example.com/api/incidents?ci={{.Alarm.Value.Component | urlquery}}&q={{urlquery .Entity.ID " " .Alarm.Value.State.Value}}');
    expect(url.render(alarm(3))).toBe('https://itsm.example.com/api/incidents?ci=db-01&q=disk%2Fvar%2Fdb-01+3');
  });

  it('renders headers', () => {
    const header = compile('Bearer {{.Token}}');
    expect(header.render({ ...alarm(1), Token: 'abc.def' })).toBe('Bearer abc.def');
  });

  it('rejects a broken template at save time with its position', () => {
    const result = parseTemplate('{\n  "component": "{{.Alarm.Value.Component}}",\n  "state": {{.Alarm.Value.State.Value | printf "%d"}\n}');
    expect(result).toMatchObject({ ok: false, error: { line: 3, column: 52 } });
    if (!result.ok) expect(result.error.message).toBe('template: 3:52: unexpected "}" in operand');
  });
});

describe('event-filter actions and dynamic infos', () => {
  it('clean up outputs with replace, trim and case functions', () => {
    const template = compile('{{ .Alarm.Value.Output | replace "^CRIT: " "" | replace "\\\\s+" " " | trim | uppercase }}');
    expect(template.render(alarm(3))).toBe('/VAR IS 97% FULL "URGENT"');
  });

  it('extract parts of identifiers with split', () => {
    expect(compile('{{ .Alarm.Value.Resource | split "/" 1 }}@{{ .Entity.ID | split "/" 2 }}').render(alarm(3))).toBe('var@db-01');
  });

  it('map states to labels', () => {
    const template = compile(
      '{{- $s := .Alarm.Value.State.Value -}}\n{{- if ge $s 3 }}critical{{ else if eq $s 2 }}major{{ else if eq $s 1 }}minor{{ else }}ok{{ end -}}',
    );
    expect([0, 1, 2, 3].map((state) => template.render(alarm(state)))).toEqual(['ok', 'minor', 'major', 'critical']);
  });

  it('can be rendered many times from one compilation', () => {
    const template = compile('{{.Alarm.Value.Component}}:{{.Alarm.Value.State.Value}}');
    const outputs = Array.from({ length: 100 }, (_, state) => template.render(alarm(state)));
    expect(outputs[42]).toBe('db-01:42');
  });
});
