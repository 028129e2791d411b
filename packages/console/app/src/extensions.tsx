import { useQuery } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { api, type Alarm } from './api.js';

/** What the console hands a plugin: its HTTP client (session cookie, 401 handling). */
export interface ConsoleHost {
  api: typeof api;
}

/**
 * The default export of an extension's ES module. Framework-neutral: a page is mounted into an element the console
 * owns, so a plugin needs neither the console's React nor a build step.
 */
export interface ExtensionModule {
  pages?: Record<string, (element: HTMLElement, host: ConsoleHost) => void | (() => void)>;
  alarmColumns?: Record<string, (alarm: Alarm) => string>;
  /** Runs on the selected alarms; answers a message to show. */
  alarmActions?: Record<string, (alarms: Alarm[], host: ConsoleHost) => Promise<string> | string>;
}

interface ExtensionData {
  id: string;
  module: string;
  pages: { path: string; title: string }[];
  alarmColumns: { id: string; label: string }[];
  alarmActions: { id: string; label: string }[];
}

export interface LoadedExtensions {
  pages: { href: string; path: string; title: string; extension: string; mount?: NonNullable<ExtensionModule['pages']>[string] }[];
  columns: { key: string; label: string; render: (alarm: Alarm) => string }[];
  actions: { key: string; label: string; run: (alarms: Alarm[]) => Promise<string> }[];
  /** Extensions whose module failed to load: the rest of the console works without them. */
  failed: string[];
}

const host: ConsoleHost = { api };

async function loadExtensions(): Promise<LoadedExtensions> {
  const { extensions } = await api<{ extensions: ExtensionData[] }>('/api/v2/console/extensions');
  const loaded: LoadedExtensions = { pages: [], columns: [], actions: [], failed: [] };
  await Promise.all(
    extensions.map(async (e) => {
      let module: ExtensionModule;
      try {
        module = ((await import(/* @vite-ignore */ e.module)) as { default: ExtensionModule }).default;
      } catch (err) {
        console.error(`console extension ${e.id} failed to load`, err);
        loaded.failed.push(e.id);
        return;
      }
      for (const p of e.pages) loaded.pages.push({ href: `/x/${p.path}`, path: p.path, title: p.title, extension: e.id, mount: module.pages?.[p.path] });
      for (const c of e.alarmColumns) {
        const render = module.alarmColumns?.[c.id];
        if (!render) continue;
        loaded.columns.push({
          key: `${e.id}:${c.id}`,
          label: c.label,
          // A plugin that throws shows an empty cell, not a broken list.
          render: (alarm) => {
            try {
              return String(render(alarm));
            } catch {
              return '';
            }
          },
        });
      }
      for (const a of e.alarmActions) {
        const run = module.alarmActions?.[a.id];
        if (run) loaded.actions.push({ key: `${e.id}:${a.id}`, label: a.label, run: async (alarms) => String(await run(alarms, host)) });
      }
    }),
  );
  return loaded;
}

const none: LoadedExtensions = { pages: [], columns: [], actions: [], failed: [] };

/** The composed features' console extensions, loaded once per page load. */
export function useExtensions(): LoadedExtensions {
  const { data } = useQuery({ queryKey: ['extensions'], queryFn: loadExtensions, staleTime: Infinity });
  return data ?? none;
}

/** A plugin page: the console's heading, the plugin's content mounted below it. */
export function ExtensionPage({ path, extensions }: { path: string; extensions: LoadedExtensions }) {
  const page = extensions.pages.find((p) => p.path === path);
  const container = useRef<HTMLDivElement>(null);
  const [error, setError] = useState('');
  useEffect(() => {
    if (!page?.mount || !container.current) return undefined;
    try {
      const cleanup = page.mount(container.current, host);
      return typeof cleanup === 'function' ? cleanup : undefined;
    } catch (err) {
      setError(`The page of ${page.extension} failed: ${(err as Error).message}`);
      return undefined;
    }
  }, [page]);
  return (
    <main id="main" className="page">
      <h1>{page?.title ?? 'Page not found'}</h1>
      {!page && <p>No extension adds a page at this address.</p>}
      {error && <p role="alert">{error}</p>}
      <div ref={container} />
    </main>
  );
}
