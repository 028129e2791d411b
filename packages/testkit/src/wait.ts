/**
 * Waiting in tests: one way to wait for something asynchronous, with one generous deadline. A passing run never
 * waits for the deadline, so it can be long; a short one fails tests on a loaded machine (CI, a busy laptop).
 */
import { vi } from 'vitest';

/** How long a test waits for a condition before failing (`VIGIE_TEST_PATIENCE_MS`, 60 s by default). */
export const patienceMs = Number(process.env.VIGIE_TEST_PATIENCE_MS) || 60_000;

/**
 * Reads `read()` every 50 ms until `accept` holds for its value, and returns that value; fails after `patienceMs`
 * (or `timeoutMs`), naming `what` and the last value read.
 */
export async function eventually<T>(read: () => Promise<T> | T, accept: (value: T) => boolean, what = 'the condition', timeoutMs = patienceMs): Promise<T> {
  return vi.waitFor(
    async () => {
      const value = await read();
      if (!accept(value)) throw new Error(`timed out waiting for ${what}; last value: ${JSON.stringify(value)}`);
      return value;
    },
    { timeout: timeoutMs, interval: 50 },
  );
}

/** Reads `probe()` until it answers something truthy, and returns it (`eventually` for "until it is there"). */
export async function waitFor<T>(probe: () => Promise<T | undefined | false> | T | undefined | false, what: string, timeoutMs = patienceMs): Promise<T> {
  return (await eventually(probe, Boolean, what, timeoutMs)) as T;
}
