import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  Kernel,
  createLogger,
  type AnyFeature,
  type Clock,
  type ConfigOverrides,
  type Logger,
  type SchedulerFactory,
  type StoreFactory,
} from '@vigie/kernel';
import { koaHttpServer, type ResponseMismatch } from '@vigie/kernel-http';
import { agendaSchedulerFactory } from '@vigie/scheduler-agenda';
import { StaticBasicAuthenticator } from './basic-authenticator.js';

export interface TestKernelOptions {
  features: readonly AnyFeature[];
  /** The store adapter, e.g. `memoryStoreFactory()` from `@vigie/documents` (kept out of the kernel). */
  store: StoreFactory;
  /** The scheduler; Agenda's (`@vigie/scheduler-agenda`), as the reference server's, by default. */
  scheduler?: SchedulerFactory;
  /** Configuration by file, section and key; merged over the test defaults (port 0, fast job polling). */
  config?: ConfigOverrides;
  env?: Readonly<Record<string, string | undefined>>;
  clock?: Clock;
  /** Users of the fallback Basic authenticator, used when no composed feature authenticates. `root:root` by default. */
  users?: Record<string, string>;
  /** A temporary directory (removed at stop) by default. */
  installDir?: string;
  logger?: Logger;
  /**
   * Whether every route answer is checked against the response schema the route declares for its status (true by
   * default): `stop()` then fails naming each mismatch, so every HTTP test also keeps the documentation true.
   */
  checkResponses?: boolean;
}

export interface RequestOptions {
  /** A JSON body (sent with `Content-Type: application/json`). */
  json?: unknown;
  /** A raw body, sent as is with the given headers. */
  body?: string | Buffer;
  headers?: Record<string, string>;
  /** Basic credentials; the first fallback user by default; `false` sends none. */
  auth?: [string, string] | false;
}

export interface TestResponse {
  status: number;
  headers: Headers;
  text: string;
  /** The parsed JSON body, or undefined when the body is not JSON. */
  body: unknown;
}

export interface TestKernel {
  kernel: Kernel;
  url: string;
  installDir: string;
  /** The answers so far that contradicted their route's response schema (see `checkResponses`). */
  readonly responseMismatches: readonly ResponseMismatch[];
  request(method: string, path: string, options?: RequestOptions): Promise<TestResponse>;
  get(path: string, options?: RequestOptions): Promise<TestResponse>;
  post(path: string, json?: unknown, options?: RequestOptions): Promise<TestResponse>;
  put(path: string, json?: unknown, options?: RequestOptions): Promise<TestResponse>;
  delete(path: string, options?: RequestOptions): Promise<TestResponse>;
  stop(): Promise<void>;
}

function mergeOverrides(base: ConfigOverrides, over: ConfigOverrides): ConfigOverrides {
  const out: ConfigOverrides = {};
  for (const file of new Set([...Object.keys(base), ...Object.keys(over)])) {
    const sections: ConfigOverrides[string] = {};
    for (const section of new Set([...Object.keys(base[file] ?? {}), ...Object.keys(over[file] ?? {})])) {
      sections[section] = { ...base[file]?.[section], ...over[file]?.[section] };
    }
    out[file] = sections;
  }
  return out;
}

/** Starts a kernel on a free loopback port for tests that exercise features over HTTP. */
export async function startTestKernel(options: TestKernelOptions): Promise<TestKernel> {
  const ownDir = options.installDir === undefined;
  const installDir = options.installDir ?? mkdtempSync(join(tmpdir(), 'vigie-test-'));
  const users = options.users ?? { root: 'root' };
  const defaults: ConfigOverrides = { 'webserver.conf': { server: { host: '127.0.0.1', port: 0, jobs_poll_ms: 100, shutdown_timeout_ms: 5000 } } };
  const config = mergeOverrides(defaults, options.config ?? {});
  const responseMismatches: ResponseMismatch[] = [];
  const kernel = new Kernel({
    features: options.features,
    installDir,
    env: options.env ?? {},
    configOverrides: config,
    store: options.store,
    scheduler: options.scheduler ?? agendaSchedulerFactory(),
    http: koaHttpServer(options.checkResponses === false ? {} : { onResponseMismatch: (mismatch) => void responseMismatches.push(mismatch) }),
    clock: options.clock,
    logger: options.logger ?? createLogger({ level: process.env.VIGIE_TEST_LOG ?? 'silent' }),
    authenticator: new StaticBasicAuthenticator(users),
  });
  let address: { url: string };
  try {
    address = await kernel.start();
  } catch (err) {
    await kernel.stop().catch(() => undefined);
    if (ownDir) rmSync(installDir, { recursive: true, force: true });
    throw err;
  }
  const [firstUser] = Object.entries(users);
  const request = async (method: string, path: string, opts: RequestOptions = {}): Promise<TestResponse> => {
    const headers: Record<string, string> = { ...opts.headers };
    const auth = opts.auth === undefined ? firstUser : opts.auth;
    if (auth) headers.authorization = `Basic ${Buffer.from(`${auth[0]}:${auth[1]}`).toString('base64')}`;
    let body: string | Buffer | undefined = opts.body;
    if (opts.json !== undefined) {
      body = JSON.stringify(opts.json);
      headers['content-type'] ??= 'application/json';
    }
    // A copy into a plain Uint8Array: the DOM's BodyInit (in programs that load lib.dom) takes no Node Buffer.
    const res = await fetch(`${address.url}${path}`, { method, headers, body: typeof body === 'string' || body === undefined ? body : new Uint8Array(body) });
    const text = await res.text();
    let parsed: unknown;
    if ((res.headers.get('content-type') ?? '').includes('json') && text !== '') {
      try {
        parsed = JSON.parse(text);
      } catch {
        parsed = undefined;
      }
    }
    return { status: res.status, headers: res.headers, text, body: parsed };
  };
  return {
    kernel,
    url: address.url,
    installDir,
    responseMismatches,
    request,
    get: (path, opts) => request('GET', path, opts),
    post: (path, json, opts) => request('POST', path, { ...opts, json }),
    put: (path, json, opts) => request('PUT', path, { ...opts, json }),
    delete: (path, opts) => request('DELETE', path, opts),
    stop: async () => {
      await kernel.stop();
      if (ownDir) rmSync(installDir, { recursive: true, force: true });
      if (responseMismatches.length > 0) {
        const lines = responseMismatches.map((m) => `${m.method} ${m.path} ${m.status} (${m.featureId}): ${m.problems.join('; ')}`);
        throw new Error(`answers that contradict their route's response schema:\n${lines.join('\n')}`);
      }
    },
  };
}
