import { homedir } from 'node:os';
import { join, resolve } from 'node:path';
import { ConfigFiles, ErrorCodes, hasCode, Kernel, VigieError, type AnyFeature } from '@vigie/kernel';
import { koaHttpServer } from '@vigie/kernel-http';
import { agendaSchedulerFactory } from '@vigie/scheduler-agenda';
import { availableFeatures, defaultFeatureIds } from './features.js';
import { loadPlugins } from './plugins.js';
import { availableStores, defaultStore, storeForUrl } from './stores.js';

export interface ServerOptions {
  /** `--install-dir`, else `$VIGIE_HOME`, else `./.vigie`. */
  installDir?: string;
  env?: Readonly<Record<string, string | undefined>>;
  /** Overrides of `[server] host` and `port` (command-line flags). */
  host?: string;
  port?: number;
  /** Features added to those named in the configuration (for hosts embedding the server). */
  extraFeatures?: readonly AnyFeature[];
}

export function resolveInstallDir(given: string | undefined, env: Readonly<Record<string, string | undefined>>): string {
  const dir = given ?? env.VIGIE_HOME ?? join(process.cwd(), '.vigie');
  return resolve(dir.startsWith('~/') ? join(homedir(), dir.slice(2)) : dir);
}

const list = (value: string | undefined): string[] | undefined => value?.split(',').map((item) => item.trim()).filter((item) => item !== '');

/**
 * Reads the composition from `<install>/etc/webserver.conf` (`[server] features`, `[server] plugins`,
 * `[store] adapter`) and builds the kernel. Plugins are npm packages installed in the installation directory.
 */
export async function createServerKernel(options: ServerOptions = {}): Promise<Kernel> {
  const env = options.env ?? process.env;
  const installDir = resolveInstallDir(options.installDir, env);
  const files = new ConfigFiles(join(installDir, 'etc'), env);
  const server = files.section('webserver.conf', 'server');
  const listed = list(server.features) ?? defaultFeatureIds;
  const unknown = listed.filter((id) => !(id in availableFeatures));
  if (unknown.length > 0) {
    throw new Error(`[server] features names features this server does not have: ${unknown.join(', ')} (available: ${defaultFeatureIds.join(', ')})`);
  }
  const features = await Promise.all(listed.map((id) => (availableFeatures[id] as () => Promise<AnyFeature>)()));
  const plugins = await loadPlugins(list(server.plugins) ?? [], installDir);
  const storeSection = files.section('webserver.conf', 'store');
  const adapter = storeSection.adapter ?? storeForUrl(storeSection.url) ?? defaultStore;
  const loadStore = availableStores[adapter];
  if (!loadStore) throw new Error(`[store] adapter ${adapter} is unknown (available: ${Object.keys(availableStores).join(', ')})`);
  const overrides: Record<string, string | number> = {};
  if (options.host !== undefined) overrides.host = options.host;
  if (options.port !== undefined) overrides.port = options.port;
  const store = await loadStore();
  try {
    return new Kernel({
      features: [...features, ...plugins.map((p) => p.feature), ...(options.extraFeatures ?? [])],
      installDir,
      env,
      configOverrides: { 'webserver.conf': { server: overrides } },
      store,
      // The reference server's choice of scheduler: Agenda, keeping its jobs in the store adapter's job store.
      scheduler: agendaSchedulerFactory(),
      // And of HTTP server: the kernel's Koa application.
      http: koaHttpServer(),
    });
  } catch (err) {
    if (plugins.length === 0 || !hasCode(err, ErrorCodes.InvalidComposition)) throw err;
    // Say which package each plugin feature came from, so the deployer knows what to fix or remove.
    const origins = plugins.map((p) => `feature ${p.feature.id} comes from plugin ${p.packageName} (${p.packageDir})`);
    const composition = err as VigieError;
    throw new VigieError(ErrorCodes.InvalidComposition, `${composition.message}\n  where:\n  - ${origins.join('\n  - ')}`, { details: composition.details });
  }
}
