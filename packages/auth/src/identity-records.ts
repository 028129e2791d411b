import { array, boolean, number, object, type Schema } from 'yup';

/**
 * The answer of the original's `/rest/object/…` routes (LDAP and CAS configuration): `{total, data: [record],
 * success: true}`, with `data` empty when nothing is stored.
 */
export function objectEnvelope<T>(record: T | null): { total: number; data: T[]; success: true } {
  return record === null ? { total: 0, data: [], success: true } : { total: 1, data: [record], success: true };
}

/** The OpenAPI schema of that answer. */
export function objectEnvelopeSchema(record: Schema): Schema {
  return object({ total: number().required(), data: array(record).required(), success: boolean().required() });
}

/** What read routes show instead of a stored secret. */
export const maskedSecret = '********';
