/**
 * The composition checks: what the kernel verifies of a set of features before it runs any of them, every problem
 * reported at once. Pure: they read the features' declarations (what `register` declared) and nothing else.
 */
import semver from 'semver';
import { bridgeProblems, type DiBridge } from './di/bridge.js';
import { definedByAnotherKernel, type AnyFeature, type HealthCheckDefinition, type JobDefinition, type KoaRouterLike, type RouteDefinition, type RouterOptions, type RouterRouteEntry } from './feature.js';
import { kernelServiceIds } from './kernel-refs.js';
import { rightProblem } from './rights.js';
import type { AnyEventRef, AnyServiceRef, ExtensionPointRef } from './refs.js';
import type { CollectionOwners } from './store/owned-store.js';
import type { IndexSpec } from './store/port.js';

/** Version of this kernel, matched against each feature's `kernel` range. */
export const KERNEL_VERSION = '0.1.0';

/** Collections the kernel itself writes (the scheduler's jobs): no feature may declare them. */
export const kernelCollections = ['agenda_jobs'];

/** What a feature declared in `register`, as the checks read it. */
export interface FeatureDeclarations {
  feature: AnyFeature;
  services: ReadonlyMap<string, { exported: boolean }>;
  bridges: readonly DiBridge[];
  /** Services and events of other features this one declared it consumes (bridge imports included). */
  consumed: readonly { ref: AnyServiceRef | AnyEventRef; via: 'bridge' | 'consume' }[];
  /** Ids of the domain events this feature owns. */
  events: ReadonlySet<string>;
  /** The collections this feature owns, with their indexes. */
  collections: ReadonlyMap<string, readonly IndexSpec[]>;
  routes: readonly RouteDefinition[];
  routers: readonly { router: KoaRouterLike; options: RouterOptions }[];
  jobs: readonly JobDefinition<unknown>[];
  healthChecks: readonly HealthCheckDefinition[];
  extensionPoints: ReadonlySet<string>;
  contributions: readonly { point: ExtensionPointRef<unknown> }[];
  authenticator: unknown;
  auditTrail: unknown;
}

/** Ids of the services a feature exports: its bridges' exports and its exported services. */
export function exportedIds(record: FeatureDeclarations): string[] {
  return [
    ...record.bridges.flatMap((b) => (b.spec.exports ?? []).map((e) => e.ref.id)),
    ...[...record.services].filter(([, s]) => s.exported).map(([name]) => name),
  ];
}

/** The routes of a router (middleware layers, which have no method, are not routes); HEAD is implied by GET. */
export function routerRoutes(featureId: string, router: KoaRouterLike, options: RouterOptions): RouterRouteEntry[] {
  // A prefix joined to '/' drops the slash: documentation keys match with or without a trailing one.
  const unslashed = (key: string): string => (key.length > 1 ? key.replace(/\/+$/, '') : key);
  const docs = new Map(Object.entries(options.docs ?? {}).map(([key, doc]) => [unslashed(key), doc]));
  const entries: RouterRouteEntry[] = [];
  for (const layer of router.stack) {
    if (typeof layer.path !== 'string') continue;
    for (const method of layer.methods) {
      if (method === 'HEAD' && layer.methods.includes('GET')) continue;
      const doc = docs.get(unslashed(`${method} ${layer.path}`));
      const right = doc?.right ?? options.right;
      entries.push({ featureId, method, path: layer.path, ...(doc ? { doc } : {}), ...(right !== undefined ? { right } : {}) });
    }
  }
  return entries;
}

/** The routes of a feature's `@koa/router` routers. */
export function routerEntries(record: FeatureDeclarations): RouterRouteEntry[] {
  return record.routers.flatMap(({ router, options }) => routerRoutes(record.feature.id, router, options));
}

/**
 * A route path with its parameter names erased and no trailing slash (`/a/:id/` → `/a/:`, `/a/*rest` → `/a/*`): two
 * routes of one method and shape would answer the same requests.
 */
export function routeShape(path: string): string {
  let end = path.length;
  while (end > 1 && path[end - 1] === '/') end -= 1;
  const segments = path.slice(0, end).split('/').slice(1);
  return `/${segments.map((s) => (s.startsWith(':') ? ':' : s.startsWith('*') ? '*' : s)).join('/')}`.replace(/^\/\/$/, '/');
}

/** Checks ids, kernel ranges and dependencies; returns the features in dependency order. */
export function orderFeatures(features: readonly AnyFeature[], problems: string[]): AnyFeature[] {
  const byId = new Map<string, AnyFeature>();
  for (const feature of features) {
    if (byId.has(feature.id)) problems.push(`feature ${feature.id} is composed twice`);
    if (definedByAnotherKernel(feature)) {
      problems.push(`feature ${feature.id} was defined with another copy of @vigie/kernel (a plugin takes @vigie/kernel as a peer dependency)`);
    }
    byId.set(feature.id, feature);
    if (!semver.validRange(feature.kernel)) problems.push(`feature ${feature.id}: invalid kernel range ${JSON.stringify(feature.kernel)}`);
    else if (!semver.satisfies(KERNEL_VERSION, feature.kernel)) {
      problems.push(`feature ${feature.id} needs kernel ${feature.kernel}, this kernel is ${KERNEL_VERSION}`);
    }
    for (const dep of feature.dependsOn ?? []) {
      if (!features.some((f) => f.id === dep)) problems.push(`feature ${feature.id} depends on ${dep}, which is not composed`);
    }
  }
  const ordered: AnyFeature[] = [];
  const state = new Map<string, 'visiting' | 'done'>();
  const cycles = new Set<string>();
  const visit = (feature: AnyFeature, path: string[]): void => {
    const s = state.get(feature.id);
    if (s === 'done') return;
    if (s === 'visiting') {
      const cycle = [...path.slice(path.indexOf(feature.id)), feature.id].join(' -> ');
      if (!cycles.has(cycle)) problems.push(`dependency cycle: ${cycle}`);
      cycles.add(cycle);
      return;
    }
    state.set(feature.id, 'visiting');
    for (const dep of feature.dependsOn ?? []) {
      const target = byId.get(dep);
      if (target) visit(target, [...path, feature.id]);
    }
    state.set(feature.id, 'done');
    ordered.push(feature);
  };
  for (const feature of byId.values()) visit(feature, []);
  return ordered;
}

/**
 * Duplicate routes, jobs, health checks, authenticators, services, events and extension points; ids not prefixed
 * by their declaring feature's id; bridge classes injecting what their bridge lacks; consumed services and events
 * (bridge imports included) that no dependency provides; contributions to points of non-dependencies.
 */
export function declarationProblems(records: readonly FeatureDeclarations[], problems: string[]): CollectionOwners {
  const collectionOwners = new Map<string, string>(kernelCollections.map((name) => [name, 'kernel']));
  const routes = new Map<string, string>();
  const jobs = new Map<string, string>();
  const checks = new Map<string, string>();
  const points = new Map<string, string>();
  const services = new Map<string, string>();
  const events = new Map<string, string>();
  const claim = (owners: Map<string, string>, what: string, key: string, id: string): void => {
    const owner = owners.get(key);
    if (owner !== undefined && owner !== id) problems.push(`${what} ${key} is declared by features ${owner} and ${id}`);
    else owners.set(key, id);
  };
  for (const record of records) {
    const id = record.feature.id;
    for (const collection of record.collections.keys()) {
      if (kernelCollections.includes(collection)) problems.push(`feature ${id} declares collection ${collection}, which the kernel owns`);
      else claim(collectionOwners, 'collection', collection, id);
    }
    for (const point of record.extensionPoints) claim(points, 'extension point', point, id);
    for (const event of record.events) claim(events, 'event', event, id);
    for (const service of exportedIds(record)) claim(services, 'service', service, id);
    checkOwnPrefix(record, problems);
    for (const bridge of record.bridges) for (const problem of bridgeProblems(bridge.spec)) problems.push(`feature ${id}: ${problem}`);
  }
  for (const record of records) checkConsumed(record, services, events, problems);
  const authenticators = records.filter((r) => r.authenticator).map((r) => r.feature.id);
  if (authenticators.length > 1) problems.push(`several features provide the authenticator: ${authenticators.join(', ')}`);
  const auditTrails = records.filter((r) => r.auditTrail).map((r) => r.feature.id);
  if (auditTrails.length > 1) problems.push(`several features provide the audit trail: ${auditTrails.join(', ')}`);
  for (const record of records) {
    const id = record.feature.id;
    for (const route of record.routes) {
      const paths = typeof route.path === 'string' ? [route.path] : route.path;
      const rightIssue = route.public === true ? (route.right === undefined ? null : 'is public, so it cannot require a right') : rightProblem(route.right);
      if (rightIssue !== null) problems.push(`feature ${id}: route ${route.method} ${paths.join(', ')} ${rightIssue}`);
      for (const path of paths) {
        if (!path.startsWith('/')) problems.push(`feature ${id}: route path ${path} must be absolute`);
        const key = `${route.method} ${routeShape(path)}`;
        const owner = routes.get(key);
        if (owner !== undefined) problems.push(`duplicate route ${route.method} ${path} (features ${owner} and ${id})`);
        else routes.set(key, id);
      }
    }
    for (const entry of routerEntries(record)) {
      if (!entry.path.startsWith('/')) problems.push(`feature ${id}: router path ${entry.path} must be absolute`);
      const routerRightIssue = rightProblem(entry.right);
      if (routerRightIssue !== null) problems.push(`feature ${id}: router route ${entry.method} ${entry.path} ${routerRightIssue}`);
      const owner = routes.get(`${entry.method} ${routeShape(entry.path)}`);
      if (owner !== undefined) problems.push(`router route ${entry.method} ${entry.path} of feature ${id} is hidden by a declared route of feature ${owner}`);
    }
    for (const job of record.jobs) {
      const owner = jobs.get(job.name);
      if (owner !== undefined) problems.push(`duplicate job ${job.name} (features ${owner} and ${id})`);
      else jobs.set(job.name, id);
    }
    for (const check of record.healthChecks) {
      const owner = checks.get(check.name);
      if (owner !== undefined) problems.push(`duplicate health check ${check.name} (features ${owner} and ${id})`);
      else checks.set(check.name, id);
    }
    for (const { point } of record.contributions) {
      const owner = points.get(point.id);
      if (owner === undefined) problems.push(`feature ${id} contributes to unknown extension point ${point.id}`);
      else if (owner !== id && !(record.feature.dependsOn ?? []).includes(owner)) {
        problems.push(`feature ${id} contributes to ${point.id} but does not depend on ${owner}`);
      }
    }
  }
  return collectionOwners;
}

/** Ids are `<owner>.<name>`: what a feature declares (services, bridge exports, events, extension points) starts with its own id. */
function checkOwnPrefix(record: FeatureDeclarations, problems: string[]): void {
  const id = record.feature.id;
  const declared: [string, Iterable<string>][] = [
    ['service', new Set([...record.services.keys(), ...exportedIds(record)])],
    ['event', record.events],
    ['extension point', record.extensionPoints],
  ];
  for (const [what, ids] of declared) {
    for (const declaredId of ids) {
      if (!declaredId.startsWith(`${id}.`)) problems.push(`feature ${id} declares ${what} ${declaredId}, whose id must start with "${id}."`);
    }
  }
}

/** Each consumed reference must be the kernel's, the feature's own, or provided by a feature it depends on. */
function checkConsumed(record: FeatureDeclarations, services: Map<string, string>, events: Map<string, string>, problems: string[]): void {
  const id = record.feature.id;
  const dependsOn = record.feature.dependsOn ?? [];
  for (const { ref, via } of record.consumed) {
    if (ref.kind === 'service' && (kernelServiceIds.has(ref.id) || record.services.has(ref.id))) continue;
    const what = via === 'bridge' ? `feature ${id} imports ${ref.kind} ${ref.id} into its bridge` : `feature ${id} consumes ${ref.kind} ${ref.id}`;
    const owner = (ref.kind === 'service' ? services : events).get(ref.id);
    if (owner === undefined) problems.push(`${what}, which no composed feature ${ref.kind === 'service' ? 'exports' : 'declares'}`);
    else if (owner !== id && !dependsOn.includes(owner)) problems.push(`${what}, which feature ${owner} provides, but ${id} does not depend on ${owner}`);
  }
}
