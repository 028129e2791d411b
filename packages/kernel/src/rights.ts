import { HttpError } from './errors.js';

/**
 * A right names a resource and an action, `<resource>:<action>` (`idle-rules:write`, `alarms:ack`). Each route
 * declares the one it needs next to its definition; the kernel refuses a route without one at boot.
 */
export const rightPattern = /^[a-z][a-z0-9-]{0,63}:[a-z][a-z0-9-]{0,63}$/;

/**
 * Held by a user with every right, including those of features composed later (the built-in `admin` role): a set
 * containing it answers yes to any right.
 */
export const everyRight = '*';

/** Held by every authenticated user, whatever their roles: reading and changing their own account. */
export const ownAccountRight = 'account:own';

/** The rights a user holds: the union over their roles (or a key's subset of its owner's). */
export type Rights = ReadonlySet<string>;

export function holdsRight(rights: Rights | undefined, right: string): boolean {
  return rights !== undefined && (rights.has(everyRight) || rights.has(right));
}

/** The 403 of a request whose user lacks the route's right (the usual envelope). */
export function missingRight(right: string): HttpError {
  return new HttpError(403, `the right ${right} is required`);
}

/** What is wrong with a right as a route declares it; null when it is well formed. */
export function rightProblem(right: unknown): string | null {
  if (typeof right !== 'string') return 'declares no right (set `right: "<resource>:<action>"`, or `public: true`)';
  if (!rightPattern.test(right)) return `declares the right ${JSON.stringify(right)}, which is not <resource>:<action> in lowercase kebab-case`;
  return null;
}
