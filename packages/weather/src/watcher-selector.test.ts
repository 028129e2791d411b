import { describe, expect, it } from 'vitest';
import { dependsChange, importLinks, selectionIsCurrent, watcherSelector } from './watcher-selector.js';

const watcher = (fields: Record<string, unknown>) => ({ _id: 'w', type: 'watcher', depends: [], ...fields });

describe('watcher selectors', () => {
  it('select nothing by rule without mfilter text or entities patterns (watchers made by imports)', () => {
    for (const fields of [{}, { mfilter: '' }, { entities: [] }, { entities: null }]) {
      expect(watcherSelector(watcher(fields))).toEqual({ key: '', problems: [], mfilterUnreadable: false });
    }
  });

  it('read the mfilter as a safe JSON filter and the entities as entity patterns', () => {
    const selector = watcherSelector(watcher({ mfilter: '{"infos.team.value": "web"}', entities: [{ type: 'resource' }] }));
    expect(selector.mfilter).toEqual({ 'infos.team.value': 'web' });
    expect(selector.patterns?.matches({ type: 'resource' })).toBe(true);
    expect(selector.patterns?.matches({ type: 'component' })).toBe(false);
    expect(selector.problems).toEqual([]);
  });

  it.each([
    ['{broken', /mfilter cannot be read/],
    ['[1]', /mfilter cannot be read: it is not a JSON object/],
    ['{"$where": "true"}', /mfilter cannot be read: .*\$where/],
  ])('say why the mfilter %s selects nothing', (mfilter, problem) => {
    const selector = watcherSelector(watcher({ mfilter }));
    expect(selector.mfilter).toBeUndefined();
    expect(selector.mfilterUnreadable).toBe(true);
    expect(selector.problems[0]).toMatch(problem);
  });

  it('say why invalid entities patterns select nothing', () => {
    const selector = watcherSelector(watcher({ entities: [{ colour: 'red' }] }));
    expect(selector.patterns).toBeUndefined();
    expect(selector.problems[0]).toMatch(/entities patterns are invalid/);
  });
});

describe('dependsChange', () => {
  const selector = watcherSelector(watcher({ mfilter: '{}' }));

  it('keeps the import links and adds the selection, recording which ids it chose', () => {
    const w = watcher({ mfilter: '{}', depends: ['linked'] });
    expect(importLinks(w)).toEqual(['linked']);
    expect(selectionIsCurrent(w, selector)).toBe(false);
    const change = dependsChange(w, selector, ['a', 'linked', 'w']);
    // The watcher never depends on itself; a linked entity stays a link.
    expect(change).toEqual({ add: ['a'], remove: [], record: { selector: selector.key, ids: ['a'] }, depends: ['linked', 'a'] });
  });

  it('removes only what the selection had chosen', () => {
    const w = watcher({ mfilter: '{}', depends: ['linked', 'a', 'b'], watcher_selection: { selector: selector.key, ids: ['a', 'b'] } });
    expect(selectionIsCurrent(w, selector)).toBe(true);
    expect(importLinks(w)).toEqual(['linked']);
    expect(dependsChange(w, selector, ['b'])).toEqual({ add: [], remove: ['a'], record: { selector: selector.key, ids: ['b'] }, depends: ['linked', 'b'] });
  });

  it('changes nothing when the selection is the recorded one', () => {
    const w = watcher({ mfilter: '{}', depends: ['a', 'b'], watcher_selection: { selector: selector.key, ids: ['b', 'a'] } });
    expect(dependsChange(w, selector, ['a', 'b'])).toEqual({ add: [], remove: [], depends: ['a', 'b'] });
  });

  it('adds back a recorded id an import removed from depends', () => {
    const w = watcher({ mfilter: '{}', depends: [], watcher_selection: { selector: selector.key, ids: ['a'] } });
    expect(dependsChange(w, selector, ['a'])).toEqual({ add: ['a'], remove: [], depends: ['a'] });
  });
});
