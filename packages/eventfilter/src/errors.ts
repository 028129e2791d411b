import { ErrorCodes, type ErrorWording } from '@vigie/kernel';

/** The original's answer to a body that is absent, empty (`{}`, `[]`, `""`, …) or not sent as JSON. */
export const emptyRequest = 'Empty request';

/** The spec's texts for event-filter bodies; validation messages are the original's sentences (see schemas.ts). */
export const ruleErrors: ErrorWording = {
  [ErrorCodes.BodyInvalidJson]: (e) => ({ status: 400, description: `Malformed JSON: ${e.detail}` }),
  // The original read bodies only when sent as JSON: any other content type counted as no body at all.
  [ErrorCodes.BodyUnsupportedType]: () => ({ status: 400, description: emptyRequest }),
  [ErrorCodes.Validation]: (e) => ({ status: 400, description: e.detail }),
};

/** POST: a duplicate `_id`, worded as the original reported MongoDB's error (REFERENCE §3.4). */
export const createRuleErrors: ErrorWording = {
  [ErrorCodes.DuplicateKey]: (e) => ({ status: 400, description: `Operation failure while doing insert: ${e.detail}` }),
};
