/**
 * Restart tests: a feature's server fixture (a script calling `serveRestartFixture`) runs in its own process on an
 * installation directory that outlives it, so a test can kill it and start it again.
 */
import { authFeature } from '@vigie/auth';
import { Kernel, createLogger, type AnyFeature } from '@vigie/kernel';
import { startSourceServer } from '@vigie/kernel-testing';
import { koaHttpServer } from '@vigie/kernel-http';
import { agendaSchedulerFactory } from '@vigie/scheduler-agenda';
import { sqliteStoreFactory } from '@vigie/store-sqlite';
import { testAdmin, testPasswordHashCost } from './test-admin.js';

const authorization = `Basic ${Buffer.from(`${testAdmin.user}:${testAdmin.password}`).toString('base64')}`;

/**
 * The body of a server fixture, run as `<fixture>.ts <install dir>`: the auth feature and `features` on the embedded
 * store in that directory, 1 s engine beats, jobs polled every 100 ms, `testAdmin` as administrator. Prints
 * `LISTENING <url>` once it serves; SIGTERM stops it cleanly.
 */
export async function serveRestartFixture(features: readonly AnyFeature[], config: Record<string, Record<string, string | number | boolean>> = {}): Promise<void> {
  const installDir = process.argv[2];
  if (!installDir) throw new Error(`usage: ${process.argv[1] ?? 'fixture'} <install dir>`);
  const kernel = new Kernel({
    features: [authFeature, ...features],
    installDir,
    env: { VIGIE_ADMIN_USER: testAdmin.user, VIGIE_ADMIN_PASSWORD: testAdmin.password, ...testPasswordHashCost },
    configOverrides: {
      'webserver.conf': {
        server: { host: '127.0.0.1', port: 0, jobs_poll_ms: 100, shutdown_timeout_ms: 2000 },
        engine: { beat_interval: '1s' },
        ...config,
      },
    },
    store: sqliteStoreFactory(),
    scheduler: agendaSchedulerFactory(),
    http: koaHttpServer(),
    // `VIGIE_FIXTURE_LOG` (e.g. debug) lets a test wait for a log line of the server it started.
    logger: createLogger({ level: process.env.VIGIE_FIXTURE_LOG ?? 'warn' }),
  });
  kernel.installSignalHandlers();
  const address = await kernel.start();
  process.stdout.write(`LISTENING ${address.url}\n`);
}

export interface EnginesServer {
  url: string;
  exited: Promise<number | null>;
  /** The lines the server printed (its log lines at the level `startEnginesServer` was given). */
  lines: string[];
  kill(signal: NodeJS.Signals): void;
  request(method: string, path: string, body?: unknown): Promise<{ status: number; body: any }>; // eslint-disable-line @typescript-eslint/no-explicit-any -- tests read JSON answers freely
  /** The open (or, with `resolved`, resolved) alarm of an entity, with its steps, or undefined. */
  alarm(entityId: string, resolved?: boolean): Promise<{ _id: string; d: string; v: Record<string, any> } | undefined>; // eslint-disable-line @typescript-eslint/no-explicit-any -- idem
}

/** Starts the server fixture `serverFixture` (a path) on `installDir` in its own process; resolves once it listens. */
export async function startEnginesServer(installDir: string, serverFixture: string, options: { logLevel?: string } = {}): Promise<EnginesServer> {
  // The lines from the process's start: what it does before listening (a restart's replay of its queue) is logged too.
  const { child, url, exited, lines } = await startSourceServer(serverFixture, [installDir], options.logLevel ? { VIGIE_FIXTURE_LOG: options.logLevel } : {});
  const request = async (method: string, path: string, body?: unknown) => {
    const res = await fetch(`${url}${path}`, {
      method,
      headers: { authorization, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    return { status: res.status, body: (await res.json()) as unknown };
  };
  const alarm = async (entityId: string, resolved = false) => {
    const query = resolved ? 'opened=false&resolved=true' : 'opened=true';
    const res = await request('GET', `/alerts/get-alarms?with_steps=true&limit=100&${query}`);
    return (res.body as { data: { alarms: { _id: string; d: string; v: Record<string, unknown> }[] }[] }).data[0]!.alarms.find((a) => a.d === entityId);
  };
  return { url, exited, lines, kill: (signal) => child.kill(signal), request, alarm };
}
