import { pino, type Logger, type LoggerOptions, type DestinationStream } from 'pino';

export type { Logger } from 'pino';

export interface LogOptions {
  level?: string;
  /** Where log lines go; standard output by default. */
  destination?: DestinationStream;
}

/** Paths redacted from every log line: credentials must never reach the logs. */
export const redactedLogPaths = [
  'req.headers.authorization',
  'req.headers["x-canopsis-authkey"]',
  'req.query.authkey',
  'password',
  '*.password',
  '*.*.password',
  'admin_passwd',
  '*.admin_passwd',
];

export function createLogger(options: LogOptions = {}): Logger {
  const config: LoggerOptions = {
    level: options.level ?? 'info',
    base: { service: 'vigie' },
    redact: { paths: redactedLogPaths, censor: '[redacted]' },
  };
  return options.destination ? pino(config, options.destination) : pino(config);
}
