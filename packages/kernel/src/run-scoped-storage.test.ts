import { describe, expect, it } from 'vitest';
import { RunScopedStorage } from './run-scoped-storage.js';

/** Resolves on a later turn of the event loop (a timer, not a microtask). */
const nextTurn = (): Promise<void> => new Promise((resolve) => setTimeout(resolve, 0));

describe('RunScopedStorage', () => {
  it('answers the store inside a run and what it awaits, nothing outside, and runs may overlap', async () => {
    const storage = new RunScopedStorage<string>();
    expect(storage.getStore()).toBeUndefined();
    let releaseFirst = () => {};
    const first = storage.run('first', async () => {
      await new Promise<void>((resolve) => (releaseFirst = resolve));
      return storage.getStore();
    });
    const second = await storage.run('second', async () => {
      await nextTurn();
      return storage.getStore();
    });
    expect(second).toBe('second');
    releaseFirst();
    expect(await first).toBe('first');
    expect(storage.getStore()).toBeUndefined();
    await expect(storage.run('failing', () => Promise.reject(new Error('no')))).rejects.toThrow('no');
    expect(await storage.run('again', async () => storage.getStore())).toBe('again');
  });

  it('switches itself off when its last run ends: work left running sees no store afterwards', async () => {
    const storage = new RunScopedStorage<string>();
    let seenWhileRunning: string | undefined;
    let seenAfter: string | undefined = 'not read yet';
    let leftBehind: Promise<void> = Promise.resolve();
    let duringRun: Promise<void> = Promise.resolve();
    let releaseRun = () => {};
    let releaseLeftBehind = () => {};
    const afterTheRun = new Promise<void>((resolve) => (releaseLeftBehind = resolve));
    const running = storage.run('store', async () => {
      // Not awaited by the run: one read while the run is still in progress, one once it has ended.
      duringRun = nextTurn().then(() => void (seenWhileRunning = storage.getStore()));
      leftBehind = afterTheRun.then(() => void (seenAfter = storage.getStore()));
      await new Promise<void>((resolve) => (releaseRun = resolve));
    });
    await duringRun;
    releaseRun();
    await running;
    releaseLeftBehind();
    await leftBehind;
    expect(seenWhileRunning).toBe('store');
    // A plain AsyncLocalStorage would still answer 'store' here (and keep promise hooks on for the whole process).
    expect(seenAfter).toBeUndefined();
  });
});
