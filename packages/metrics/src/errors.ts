import { HttpError } from '@vigie/kernel';

/** The answer to a scrape without the configured bearer token (the token itself is never logged nor echoed). */
export function bearerRequired(): HttpError {
  return new HttpError(401, 'A valid bearer token is required', { headers: { 'WWW-Authenticate': 'Bearer realm="vigie-metrics"' } });
}
