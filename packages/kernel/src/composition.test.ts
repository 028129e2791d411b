import { describe, expect, it } from 'vitest';
import { declarationProblems, orderFeatures, routeShape, type FeatureDeclarations } from './composition.js';
import { defineFeature, type AnyFeature } from './feature.js';
import { eventRef, extensionPointRef, serviceRef } from './refs.js';

const feature = (id: string, dependsOn: string[] = [], kernel = '^0.1.0'): AnyFeature => defineFeature({ id, kernel, dependsOn, register() {} });

/** A feature's declarations with nothing declared but what `over` sets. */
function declared(of: AnyFeature, over: Partial<FeatureDeclarations> = {}): FeatureDeclarations {
  return {
    feature: of,
    services: new Map(),
    bridges: [],
    consumed: [],
    events: new Set(),
    collections: new Map(),
    routes: [],
    routers: [],
    jobs: [],
    healthChecks: [],
    extensionPoints: new Set(),
    contributions: [],
    authenticator: undefined,
    auditTrail: undefined,
    ...over,
  };
}

function problemsOf(records: FeatureDeclarations[]): string[] {
  const problems: string[] = [];
  declarationProblems(records, problems);
  return problems;
}

describe('orderFeatures', () => {
  it('puts each feature after its dependencies', () => {
    const problems: string[] = [];
    const ordered = orderFeatures([feature('c', ['b']), feature('a'), feature('b', ['a'])], problems);
    expect(ordered.map((f) => f.id)).toEqual(['a', 'b', 'c']);
    expect(problems).toEqual([]);
  });

  it('reports a missing dependency, a cycle, a kernel range, a twice-composed feature and a foreign definition at once', () => {
    const problems: string[] = [];
    // What the defineFeature of another copy of the kernel returns: marked with that copy's token.
    const foreign = Object.freeze({ ...feature('foreign'), [Symbol.for('@vigie/kernel: defined by')]: Symbol('another copy') });
    orderFeatures([feature('a', ['ghost']), feature('x', ['y']), feature('y', ['x']), feature('old', [], '^9.0.0'), feature('a'), foreign], problems);
    expect(problems).toEqual([
      'feature a depends on ghost, which is not composed',
      'feature old needs kernel ^9.0.0, this kernel is 0.1.0',
      'feature a is composed twice',
      "feature foreign was defined with another copy of @vigie/kernel (a plugin takes @vigie/kernel as a peer dependency)",
      'dependency cycle: x -> y -> x',
    ]);
  });
});

describe('routeShape', () => {
  it('gives the same shape to paths that differ only by parameter names or a trailing slash', () => {
    expect(routeShape('/a/:id/')).toBe(routeShape('/a/:other'));
    expect(routeShape('/a/*rest')).toBe('/a/*');
    expect(routeShape('/')).toBe('/');
  });
});

describe('declarationProblems', () => {
  it('accepts a composition whose declarations agree, and tells who owns each collection', () => {
    const problems: string[] = [];
    const owners = declarationProblems([declared(feature('notes'), { collections: new Map([['notes', []]]) })], problems);
    expect(problems).toEqual([]);
    expect([...owners]).toEqual([
      ['agenda_jobs', 'kernel'],
      ['notes', 'notes'],
    ]);
  });

  it('reports duplicate routes, jobs, health checks, collections and authenticators with the features involved', () => {
    const route = { method: 'GET' as const, path: '/api/v2/thing/:id', right: 'thing:read', handler: () => null };
    const shared = { routes: [route], jobs: [{ name: 'sweep', handler: async () => undefined }], healthChecks: [{ name: 'db', check: async () => ({ ok: true, message: 'up' }) }] };
    expect(
      problemsOf([
        declared(feature('a'), { ...shared, collections: new Map([['things', []]]), authenticator: {} }),
        declared(feature('b'), { ...shared, routes: [{ ...route, path: '/api/v2/thing/:key' }], collections: new Map([['things', []], ['agenda_jobs', []]]), authenticator: {} }),
      ]),
    ).toEqual([
      'collection things is declared by features a and b',
      'feature b declares collection agenda_jobs, which the kernel owns',
      'several features provide the authenticator: a, b',
      'duplicate route GET /api/v2/thing/:key (features a and b)',
      'duplicate job sweep (features a and b)',
      'duplicate health check db (features a and b)',
    ]);
  });

  it('reports references: ids outside the owner, consumption without a dependency, contributions to unknown or foreign points', () => {
    const point = extensionPointRef<string>('a.stages');
    const problems = problemsOf([
      declared(feature('a'), { extensionPoints: new Set([point.id]), events: new Set(['a.changed', 'b.stolen']) }),
      declared(feature('b'), {
        consumed: [
          { ref: eventRef('a.changed'), via: 'consume' },
          { ref: serviceRef('nobody.service'), via: 'bridge' },
        ],
        contributions: [{ point }, { point: extensionPointRef('c.nothing') }],
      }),
    ]);
    expect(problems).toEqual([
      'feature a declares event b.stolen, whose id must start with "a."',
      'feature b consumes event a.changed, which feature a provides, but b does not depend on a',
      'feature b imports service nobody.service into its bridge, which no composed feature exports',
      'feature b contributes to a.stages but does not depend on a',
      'feature b contributes to unknown extension point c.nothing',
    ]);
  });
});
