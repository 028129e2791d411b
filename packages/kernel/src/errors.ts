/**
 * Errors are recognised by their `code` string, never by `instanceof`: two copies of this package in one
 * install (a common npm accident) would otherwise make a kernel error look foreign to the other copy.
 */

/** Codes the kernel raises; features map them to their own wording (see `FeatureRegistrar.errors`). */
export const ErrorCodes = {
  /** The request body is not valid JSON (or not an object/array). `detail` holds the parser message. */
  BodyInvalidJson: 'BODY_INVALID_JSON',
  /** The request body is larger than the route allows. */
  BodyTooLarge: 'BODY_TOO_LARGE',
  /** The request has no body (or an empty one) where the route needs one. */
  BodyEmpty: 'BODY_EMPTY',
  /** The body's content type is not one the route accepts. */
  BodyUnsupportedType: 'BODY_UNSUPPORTED_TYPE',
  /** A yup schema rejected a body, query or parameter. `detail` names the faulty field. */
  Validation: 'VALIDATION',
  /** A path parameter is longer than the route allows (255 characters for ids). */
  ParamTooLong: 'PARAM_TOO_LONG',
  /** A user-supplied store filter uses a forbidden operator or exceeds a bound. */
  UnsafeFilter: 'UNSAFE_FILTER',
  /** An insert collided with an existing `_id` or unique index key. */
  DuplicateKey: 'DUPLICATE_KEY',
  /** Any other store failure. */
  StoreFailure: 'STORE_FAILURE',
  /** Credentials are missing or wrong. */
  Unauthenticated: 'UNAUTHENTICATED',
  /** No route matches the request. */
  NotFound: 'NOT_FOUND',
  /** The configuration is invalid; `details` lists every problem. */
  InvalidConfig: 'INVALID_CONFIG',
  /** The set of features cannot be composed; `details` lists every problem. */
  InvalidComposition: 'INVALID_COMPOSITION',
} as const;

export type ErrorCode = (typeof ErrorCodes)[keyof typeof ErrorCodes];

/** Base of every error the kernel raises on purpose. */
export class VigieError extends Error {
  readonly code: string;
  /** Short technical detail (parser message, field path, duplicate key); safe to show to API users. */
  readonly detail: string;
  /** Several problems at once (configuration, composition). */
  readonly details: readonly string[];

  constructor(code: string, message: string, options: { detail?: string; details?: readonly string[]; cause?: unknown } = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'VigieError';
    this.code = code;
    this.detail = options.detail ?? message;
    this.details = options.details ?? [];
  }
}

/**
 * An error that is an HTTP answer: `status` plus the `{name, description}` envelope of the spec.
 * `format: 'html'` renders a bare HTML page instead (the spec documents one route group answering that way).
 */
export class HttpError extends VigieError {
  readonly status: number;
  readonly publicName: string;
  readonly description: string;
  readonly format: 'json' | 'html';
  readonly headers: Readonly<Record<string, string>>;

  constructor(
    status: number,
    description: string,
    options: { name?: string; format?: 'json' | 'html'; headers?: Record<string, string>; cause?: unknown; code?: string } = {},
  ) {
    super(options.code ?? 'HTTP_ERROR', description, { cause: options.cause });
    this.name = 'HttpError';
    this.status = status;
    this.publicName = options.name ?? '';
    this.description = description;
    this.format = options.format ?? 'json';
    this.headers = options.headers ?? {};
  }
}

export class DuplicateKeyError extends VigieError {
  readonly collection: string;
  readonly key: Readonly<Record<string, unknown>>;

  constructor(collection: string, key: Record<string, unknown>, index = '_id_') {
    const shown = Object.entries(key)
      .map(([k, v]) => `${k}: ${JSON.stringify(v)}`)
      .join(', ');
    const detail = `E11000 duplicate key error collection: ${collection} index: ${index} dup key: { ${shown} }`;
    super(ErrorCodes.DuplicateKey, detail, { detail });
    this.name = 'DuplicateKeyError';
    this.collection = collection;
    this.key = key;
  }
}

export function hasCode(err: unknown, code: string): err is VigieError {
  return typeof err === 'object' && err !== null && (err as { code?: unknown }).code === code;
}

export function isHttpError(err: unknown): err is HttpError {
  if (typeof err !== 'object' || err === null) return false;
  const e = err as Partial<HttpError>;
  return typeof e.status === 'number' && typeof e.description === 'string' && typeof e.publicName === 'string';
}

export function errorDetail(err: unknown): string {
  if (typeof err === 'object' && err !== null) {
    const e = err as { detail?: unknown; message?: unknown };
    if (typeof e.detail === 'string') return e.detail;
    if (typeof e.message === 'string') return e.message;
  }
  return String(err);
}
