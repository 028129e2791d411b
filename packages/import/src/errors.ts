import { ErrorCodes, HttpError, type ErrorWording } from '@vigie/kernel';
import { importNotStoredCode } from './import-files.js';

const expected = 'application/json {"json": {"cis": [...], "links": [...]}} or application/x-www-form-urlencoded with a field json';

export const importErrors: ErrorWording = {
  [ErrorCodes.BodyEmpty]: () => ({ status: 400, description: `The request body is empty: send ${expected}` }),
  [ErrorCodes.BodyUnsupportedType]: (_e, ctx) => {
    const encoding = ctx.get('content-encoding');
    const unsupported = encoding && encoding.toLowerCase() !== 'identity' ? `content encoding ${encoding}` : `content type ${ctx.get('content-type') || '(none)'}`;
    return { status: 415, description: `Unsupported ${unsupported}: send ${expected}, uncompressed` };
  },
  // The client may still be sending: the connection closes after the answer instead of reading the rest.
  [ErrorCodes.BodyTooLarge]: (e) => new HttpError(413, e.detail, { headers: { Connection: 'close' } }),
  // Found while the body streams to disk (nesting beyond `[server] json_max_depth`): the same early answer.
  [ErrorCodes.BodyInvalidJson]: (e) => new HttpError(400, `Invalid JSON: ${e.detail}`, { headers: { Connection: 'close' } }),
  [importNotStoredCode]: (e) => ({ status: 500, description: e.detail }),
};
