import { describe, expect, it } from 'vitest';
import { compileRule, partialEventViews, type CompiledRule } from '../src/compiled-rules.js';
import type { RuleRecord } from '../src/rule-repository.js';

const enrichment = (_id: string, actions: Record<string, unknown>[]): RuleRecord => ({ _id, type: 'enrichment', pattern: { component: 'host' }, actions }) as RuleRecord;
const eventFields = (rules: CompiledRule[]) => rules.flatMap((rule) => rule.actions.map((action) => action.eventFields));

describe('compiled rules', () => {
  const fieldReaders = [
    enrichment('a', [
      { type: 'set_field_from_template', name: 'site', value: 'dc-{{.Event.Component}}/{{.RegexMatch.Output.code}}/{{.Event.Missing}}' },
      { type: 'set_field', name: 'team', value: 'ops' },
    ]),
    enrichment('b', [{ type: 'copy', from: 'Event.State', to: 'copied' }]),
  ];

  it('gives the actions reading the event the Go fields they read, and partial views when all of them read only Go fields', () => {
    const rules = fieldReaders.map(compileRule);
    expect(eventFields(rules)).toEqual([['Component'], undefined, ['State']]);
    expect(partialEventViews(rules)).toBe(true);
  });

  it('gives no partial views when one action of the list may read more of .Event', () => {
    for (const more of [
      { type: 'set_field_from_template', name: 'x', value: '{{json .Event}}' },
      { type: 'set_field_from_template', name: 'x', value: '{{.Event.ExtraInfos.site}}' },
      { type: 'copy', from: 'Event', to: 'x' },
    ]) {
      const rules = [...fieldReaders, enrichment('c', [more])].map(compileRule);
      expect(eventFields(rules).at(-1)).toBeUndefined();
      expect(partialEventViews(rules)).toBe(false);
    }
  });
});
