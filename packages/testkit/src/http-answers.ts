import { expect } from 'vitest';

/** The spec's error envelope, `{name, description}`; `name` is empty unless the spec gives one. */
export function errorBody(description: string, name = ''): { name: string; description: string } {
  return { name, description };
}

/** Asserts an error answer: `status` and the spec's envelope `{name: '', description}` (a RegExp matches the text). */
export async function expectError(response: Promise<{ status: number; body: unknown }>, status: number, description: string | RegExp): Promise<void> {
  const res = await response;
  expect(res.status).toBe(status);
  expect(res.body).toEqual(errorBody(typeof description === 'string' ? description : expect.stringMatching(description)));
}

/** Values of every JSON type, for bodies with a field of the wrong type. */
export const oddValues: readonly unknown[] = [null, 0, -1, 1.5, '', 'x', true, [], [null], [1], ['x'], [{}], {}, { x: 1 }];

/** The body with each field in turn (at any depth of nested objects) replaced by each of `oddValues`. */
export function* wrongTypes(body: Record<string, unknown>): Generator<Record<string, unknown>> {
  for (const [key, value] of Object.entries(body)) {
    for (const odd of oddValues) yield { ...body, [key]: odd };
    if (typeof value === 'object' && value !== null && !Array.isArray(value)) {
      for (const inner of wrongTypes(value as Record<string, unknown>)) yield { ...body, [key]: inner };
    }
  }
}
