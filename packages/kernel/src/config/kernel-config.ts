import { boolean, number, object, string, type InferType } from 'yup';
import { trustedProxiesProblem } from '../http/client-origin.js';

/** `[server]` of `etc/webserver.conf`: what the kernel itself needs. */
/** What `[server] json_max_depth` defaults to: far above any real rule, far below what overflows a recursive walk. */
const defaultJsonMaxDepth = 64;
/** The highest `[server] json_max_depth`: the nesting `@vigie/input` bounds every checked value to (`inputBounds.depth`). */
export const maxJsonDepth = 512;

export const serverConfigSchema = object({
  host: string().default('127.0.0.1'),
  port: number().integer().min(0).max(65535).default(8082),
  /** Default maximum request body; routes may set their own (the import route does). */
  body_limit: string()
    .matches(/^\d+(\.\d+)?\s*([kmgt]i?b?|b)?$/i, 'body_limit must be a size such as 1mb')
    .default('1mb'),
  /**
   * Largest request line plus headers (Node's default is 16 KiB): generous, since long filters travel in URLs (the
   * original's users hit its 6800-byte request line). Larger ⇒ 431 and the connection closes.
   */
  max_header_size: string()
    .matches(/^\d+(\.\d+)?\s*([kmgt]i?b?|b)?$/i, 'max_header_size must be a size such as 64kb')
    .default('64kb'),
  /**
   * How deep objects and arrays may nest in a JSON body (any route, including bodies streamed to disk): deeper is
   * an invalid body, answered in each route's words. Real rules nest fewer than 10 levels.
   */
  json_max_depth: number().integer().min(8).max(maxJsonDepth).default(defaultJsonMaxDepth),
  /**
   * Slow clients (Node's http server options). A client must send its whole request header within
   * `headers_timeout_ms` and its whole request within `request_timeout_ms` (the original's workers were killed after
   * 120 s), or gets a 408 and the connection closes; an idle kept-alive connection closes after
   * `keep_alive_timeout_ms`, any socket silent for `socket_timeout_ms` closes (0: never), and connections beyond
   * `max_connections` are refused (0: no cap).
   */
  headers_timeout_ms: number().integer().min(1).default(10000),
  request_timeout_ms: number().integer().min(0).default(120000),
  keep_alive_timeout_ms: number().integer().min(0).default(5000),
  socket_timeout_ms: number().integer().min(0).default(60000),
  max_connections: number().integer().min(0).default(1024),
  /**
   * Server-sent event streams (`kernelRefs.streamLimits`): how many may be open at once, how many messages may wait
   * for one slow reader before it is dropped, the heartbeat period (keep it under `socket_timeout_ms` and the
   * proxies' idle timeouts) and how many messages are kept for clients resuming with `Last-Event-ID`.
   */
  stream_max_connections: number().integer().min(1).max(100000).default(1000),
  stream_queue_events: number().integer().min(1).max(100000).default(1000),
  stream_heartbeat_ms: number().integer().min(100).max(3600000).default(15000),
  stream_replay_events: number().integer().min(0).max(1000000).default(10000),
  /** How long shutdown waits for in-flight requests and running jobs. */
  shutdown_timeout_ms: number().integer().min(0).default(30000),
  /** Upper bound of each lifecycle phase (init, start, shutdown hooks). */
  phase_timeout_ms: number().integer().positive().default(60000),
  /** How often the scheduler polls the store for due jobs. */
  jobs_poll_ms: number().integer().positive().default(5000),
  /**
   * Comma-separated addresses or CIDR ranges (or `loopback`, `linklocal`, `uniquelocal`) of the reverse proxies
   * whose `X-Forwarded-For` and `X-Forwarded-Proto` are believed: the client address audit records and login
   * throttling use, and whether the session cookie is `Secure`. Empty: no proxy is trusted.
   */
  trusted_proxies: string()
    .default('')
    .test('trusted-proxies', '${path} must list addresses or CIDR ranges', (value) => trustedProxiesProblem(value ?? '') === null),
  /** Comma-separated feature ids a composing host (the reference server) should load. */
  features: string().optional(),
  /** Comma-separated npm packages, each exporting a feature, that the reference server loads from the installation directory. */
  plugins: string().optional(),
}).test(
  'headers-within-request',
  'headers_timeout_ms must not exceed request_timeout_ms (unless request_timeout_ms is 0)',
  (server) => server.request_timeout_ms === 0 || server.headers_timeout_ms <= server.request_timeout_ms,
);

/** `[log]` of `etc/webserver.conf`. */
export const logConfigSchema = object({
  level: string().oneOf(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  /** One line per request (method, path, status, time, user). */
  access: boolean().default(false),
});

export type ServerConfig = InferType<typeof serverConfigSchema>;
export type LogConfig = InferType<typeof logConfigSchema>;
