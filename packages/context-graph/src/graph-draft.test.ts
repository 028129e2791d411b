import { describe, expect, it } from 'vitest';
import type { Entity } from './entity.js';
import { GraphDraft } from './graph-draft.js';

function entity(id: string, relations: { impact?: string[]; depends?: string[] } = {}): Entity {
  return {
    _id: id,
    name: id,
    type: 'resource',
    enabled: true,
    impact: relations.impact ?? [],
    depends: relations.depends ?? [],
    measurements: [],
    infos: {},
    enable_history: [],
    disable_history: [],
  };
}

/** a → b → c, and d alone; x and y are known not to exist. */
const stored = () => [entity('a', { impact: ['b'] }), entity('b', { impact: ['c'], depends: ['a'] }), entity('c', { depends: ['b'] }), entity('d')];
const draftOf = () => new GraphDraft(stored(), new Set(['x', 'y']));
const relationsOf = (draft: GraphDraft, id: string) => ({ impact: draft.relations(id, 'impact'), depends: draft.relations(id, 'depends') });

describe('GraphDraft', () => {
  it('reads the histories a replacement keeps; none for an entity that does not exist', () => {
    const draft = new GraphDraft([{ ...entity('a', { impact: ['b'] }), enable_history: [1], disable_history: [2] }, entity('b', { depends: ['a'] })], new Set(['x']));
    expect(draft.histories('a')).toMatchObject({ enable_history: [1], disable_history: [2] });
    expect(draft.histories('x')).toBeUndefined();
    draft.remove('a');
    expect(draft.histories('a')).toBeUndefined();
  });

  it('keeps both ends of a link in step when an entity is replaced', () => {
    const draft = draftOf();
    draft.put(entity('b', { impact: ['d'], depends: ['a'] }));
    expect(relationsOf(draft, 'b')).toEqual({ impact: ['d'], depends: ['a'] });
    expect(relationsOf(draft, 'c').depends).toEqual([]);
    expect(relationsOf(draft, 'd').depends).toEqual(['b']);
    expect(relationsOf(draft, 'a').impact).toEqual(['b']);
  });

  it('links and unlinks, telling whether anything changed', () => {
    const draft = draftOf();
    expect(draft.link('d', 'a')).toBe(true);
    expect(draft.link('d', 'a')).toBe(false);
    expect(draft.impacts('d', 'a')).toBe(true);
    expect(relationsOf(draft, 'a').depends).toEqual(['d']);
    expect(draft.unlink('d', 'a')).toBe(true);
    expect(draft.unlink('d', 'a')).toBe(false);
    expect(relationsOf(draft, 'a').depends).toEqual([]);
  });

  it('removes an entity from the relations of every entity it was linked with', () => {
    const draft = draftOf();
    draft.remove('b');
    expect(draft.exists('b')).toBe(false);
    expect(relationsOf(draft, 'a').impact).toEqual([]);
    expect(relationsOf(draft, 'c').depends).toEqual([]);
    const changes = draft.changes();
    expect(changes.deleted).toEqual(['b']);
    expect(changes.replaced.map((e) => e._id).sort()).toEqual(['a', 'c']);
    expect(changes.created).toEqual([]);
  });

  it('holds relations towards entities created later, and lists those still dangling', () => {
    const draft = draftOf();
    draft.put(entity('d', { impact: ['x', 'y'] }));
    expect(draft.danglingRelations()).toEqual([
      { from: 'd', field: 'impact', missing: 'x' },
      { from: 'd', field: 'impact', missing: 'y' },
    ]);
    draft.put(entity('x', { depends: ['d'] }));
    expect(draft.danglingRelations()).toEqual([{ from: 'd', field: 'impact', missing: 'y' }]);
    const changes = draft.changes();
    expect(changes.created.map((e) => [e._id, e.depends])).toEqual([['x', ['d']]]);
    expect(changes.replaced.find((e) => e._id === 'd')?.impact).toEqual(['x', 'y']);
  });

  it('writes back only what changed, as created, replaced or deleted', () => {
    const draft = draftOf();
    expect(draft.changes()).toEqual({ created: [], replaced: [], deleted: [] });
    draft.put(entity('x'));
    draft.remove('d');
    const changes = draft.changes();
    expect(changes.created.map((e) => e._id)).toEqual(['x']);
    expect(changes.replaced).toEqual([]);
    expect(changes.deleted).toEqual(['d']);
  });

  it('keeps relations once each, in the order they were added, whether an entity has a few or many', () => {
    const spokes = Array.from({ length: 40 }, (_, i) => `n${i}`);
    const draft = new GraphDraft([entity('hub', { depends: ['n0', 'n0', 'n1'] }), entity('n0', { impact: ['hub'] }), entity('n1', { impact: ['hub'] }), ...spokes.slice(2).map((id) => entity(id))], new Set());
    expect(draft.relations('hub', 'depends')).toEqual(['n0', 'n1']);
    for (const id of spokes) draft.link(id, 'hub');
    expect(draft.relations('hub', 'depends')).toEqual(spokes);
    expect(draft.unlink('n5', 'hub')).toBe(true);
    expect(draft.unlink('n20', 'hub')).toBe(true);
    expect(draft.unlink('n20', 'hub')).toBe(false);
    expect(draft.link('n5', 'hub')).toBe(true);
    expect(draft.relations('hub', 'depends')).toEqual([...spokes.filter((id) => id !== 'n5' && id !== 'n20'), 'n5']);
    expect(draft.impacts('n20', 'hub')).toBe(false);
    expect(draft.impacts('n39', 'hub')).toBe(true);
    draft.put(entity('hub', { depends: ['n1', 'n0', 'n1'] }));
    expect(draft.relations('hub', 'depends')).toEqual(['n1', 'n0']);
    expect(draft.relations('n2', 'impact')).toEqual([]);
    expect(draft.relations('n0', 'impact')).toEqual(['hub']);
    for (const id of ['n0', 'n1']) draft.unlink(id, 'hub');
    expect(draft.changes().replaced.find((e) => e._id === 'hub')?.depends).toEqual([]);
  });

  it('refuses ids that were not loaded', () => {
    expect(() => draftOf().exists('elsewhere')).toThrow('entity "elsewhere" was not loaded into this draft');
  });
});
