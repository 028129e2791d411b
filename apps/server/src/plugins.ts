import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { AnyFeature } from '@vigie/kernel';

/** A feature loaded from a package named in `[server] plugins`. */
export interface LoadedPlugin {
  packageName: string;
  packageDir: string;
  feature: AnyFeature;
}

/** A plugin that cannot be loaded: the message names the package and says what to do. */
export class PluginError extends Error {
  override name = 'PluginError';
}

/** Export conditions a plugin is loaded with: Node's, for an ES module import. `vigie-source` is never used. */
const conditions = ['node', 'import', 'default'];

type ExportsValue = string | null | ExportsValue[] | { [key: string]: ExportsValue };

/** The target of a package's `exports` for `.` under `conditions` (the subset of Node's algorithm a main entry needs). */
function exportTarget(value: ExportsValue): string | undefined {
  if (typeof value === 'string') return value;
  if (value === null) return undefined;
  if (Array.isArray(value)) {
    for (const candidate of value) {
      const target = exportTarget(candidate);
      if (target !== undefined) return target;
    }
    return undefined;
  }
  const keys = Object.keys(value);
  if (keys.some((k) => k.startsWith('.'))) return '.' in value ? exportTarget(value['.'] as ExportsValue) : undefined;
  for (const key of keys) if (conditions.includes(key)) return exportTarget(value[key] as ExportsValue);
  return undefined;
}

function isFeature(value: unknown): value is AnyFeature {
  if (typeof value !== 'object' || value === null) return false;
  const v = value as Record<string, unknown>;
  return typeof v.id === 'string' && typeof v.kernel === 'string' && typeof v.register === 'function';
}

/**
 * Finds a package the way Node would from `<installDir>` (its `node_modules`, then its parents'), reads its entry
 * point from `exports` or `main`, and imports it.
 */
async function importPackage(packageName: string, installDir: string): Promise<{ packageDir: string; module: Record<string, unknown> }> {
  const searched = createRequire(join(installDir, 'package.json')).resolve.paths(packageName) ?? [];
  const packageDir = searched.map((dir) => join(dir, packageName)).find((dir) => existsSync(join(dir, 'package.json')));
  if (!packageDir) {
    throw new PluginError(
      `plugin ${packageName}: package not found in ${join(installDir, 'node_modules')} (nor in a parent directory's node_modules); install it with \`npm install ${packageName}\` in ${installDir}`,
    );
  }
  let manifest: { exports?: ExportsValue; main?: string };
  try {
    manifest = JSON.parse(readFileSync(join(packageDir, 'package.json'), 'utf8')) as typeof manifest;
  } catch (err) {
    throw new PluginError(`plugin ${packageName}: unreadable package.json in ${packageDir}: ${(err as Error).message}`);
  }
  const entry = manifest.exports === undefined ? (manifest.main ?? 'index.js') : exportTarget(manifest.exports);
  if (entry === undefined) throw new PluginError(`plugin ${packageName}: its package.json exports no entry point for import (conditions ${conditions.join(', ')})`);
  const file = join(packageDir, entry);
  try {
    return { packageDir, module: (await import(pathToFileURL(file).href)) as Record<string, unknown> };
  } catch (err) {
    throw new PluginError(`plugin ${packageName}: loading ${file} failed: ${err instanceof Error ? err.message : String(err)}`, { cause: err });
  }
}

/** The feature a plugin module exports: its default export, else its only exported feature. */
function pluginFeature(packageName: string, module: Record<string, unknown>): AnyFeature {
  if (isFeature(module.default)) return module.default;
  const named = Object.entries(module).filter(([, value]) => isFeature(value));
  if (named.length === 1) return (named[0] as [string, AnyFeature])[1];
  if (named.length > 1) {
    throw new PluginError(`plugin ${packageName} exports several features (${named.map(([name]) => name).join(', ')}): export the one to load as default`);
  }
  throw new PluginError(
    `plugin ${packageName} exports no feature definition (expected a default or named export made with defineFeature from @vigie/kernel; found ${Object.keys(module).join(', ') || 'no exports'})`,
  );
}

/** Loads the packages named in `[server] plugins`, resolved from the installation directory. */
export async function loadPlugins(packageNames: readonly string[], installDir: string): Promise<LoadedPlugin[]> {
  const loaded: LoadedPlugin[] = [];
  for (const packageName of packageNames) {
    if (!/^(@[a-z0-9][\w.-]*\/)?[a-z0-9][\w.-]*$/i.test(packageName)) throw new PluginError(`[server] plugins: ${JSON.stringify(packageName)} is not an npm package name`);
    const { packageDir, module } = await importPackage(packageName, installDir);
    loaded.push({ packageName, packageDir, feature: pluginFeature(packageName, module) });
  }
  return loaded;
}
