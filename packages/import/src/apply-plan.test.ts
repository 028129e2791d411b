import { describe, expect, it } from 'vitest';
import { GraphDraft } from '@vigie/context-graph';
import { applyPlan } from './apply-plan.js';
import { readDocument } from './import-document.js';

describe('applyPlan', () => {
  it('consumes the plan: each element leaves its list as it is applied, so that a large plan is garbage by the commit', () => {
    const plan = readDocument({
      cis: [
        { _id: 'a', type: 'resource', action: 'create' },
        { _id: 'b', type: 'component', action: 'create' },
      ],
      links: [{ from: 'a', to: 'b', action: 'create' }],
    });
    const changes = applyPlan(plan, new GraphDraft([], new Set(['a', 'b'])));
    expect(changes.created.map((entity) => [entity._id, entity.impact, entity.depends])).toEqual([
      ['a', ['b'], []],
      ['b', [], ['a']],
    ]);
    expect(plan).toEqual({ cis: [], links: [] });
  });
});
