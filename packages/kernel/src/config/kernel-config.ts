import { boolean, number, object, string, type InferType } from 'yup';

/** `[server]` of `etc/webserver.conf`: what the kernel itself needs. */
export const serverConfigSchema = object({
  host: string().default('127.0.0.1'),
  port: number().integer().min(0).max(65535).default(8082),
  /** Default maximum request body; routes may set their own (the import route does). */
  body_limit: string()
    .matches(/^\d+(\.\d+)?\s*([kmgt]i?b?|b)?$/i, 'body_limit must be a size such as 1mb')
    .default('1mb'),
  /** How long shutdown waits for in-flight requests and running jobs. */
  shutdown_timeout_ms: number().integer().min(0).default(30000),
  /** Upper bound of each lifecycle phase (init, start, shutdown hooks). */
  phase_timeout_ms: number().integer().positive().default(60000),
  /** How often the scheduler polls the store for due jobs. */
  jobs_poll_ms: number().integer().positive().default(5000),
  /** Comma-separated feature ids a composing host (the reference server) should load. */
  features: string().optional(),
  /** Comma-separated npm packages, each exporting a feature, that the reference server loads from the installation directory. */
  plugins: string().optional(),
});

/** `[log]` of `etc/webserver.conf`. */
export const logConfigSchema = object({
  level: string().oneOf(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  /** One line per request (method, path, status, time, user). */
  access: boolean().default(false),
});

export type ServerConfig = InferType<typeof serverConfigSchema>;
export type LogConfig = InferType<typeof logConfigSchema>;
