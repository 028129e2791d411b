import { ErrorCodes, HttpError, type ErrorWording } from '@vigie/kernel';
import type { ImportConfig } from './config.js';
import { importNotStoredCode } from './submission-service.js';

const expected = 'application/json {"json": {"cis": [...], "links": [...]}} or application/x-www-form-urlencoded with a field json';

export const importErrors: ErrorWording = {
  [ErrorCodes.BodyEmpty]: () => ({ status: 400, description: `The request body is empty: send ${expected}` }),
  [ErrorCodes.BodyUnsupportedType]: (_e, ctx) => ({ status: 415, description: `Unsupported content type ${ctx.get('content-type') || '(none)'}: send ${expected}` }),
  // The client may still be sending: the connection closes after the answer instead of reading the rest.
  [ErrorCodes.BodyTooLarge]: (_e, ctx) => {
    const config = (ctx.state as { scope: { resolve<T>(name: string): T } }).scope.resolve<ImportConfig>('config');
    return new HttpError(413, `The import body exceeds ${config.max_body_size} ([import] max_body_size)`, { headers: { Connection: 'close' } });
  },
  [importNotStoredCode]: (e) => ({ status: 500, description: e.detail }),
};
