import { describe, expect, it } from 'vitest';
import { ManualClock, createLogger, type Doc } from '@vigie/kernel';
import { RuleCache, type RuleSource } from './rule-cache.js';

interface Rule extends Doc {
  pattern: string;
  priority?: number;
}

/** A source whose list() waits until released, counting reads; `notify` plays the store's change notification. */
class Source implements RuleSource<Rule> {
  rules: Rule[] = [];
  writes = 0;
  reads = 0;
  #listeners = new Set<() => void>();
  #release: (() => void)[] = [];
  held = false;

  async list(): Promise<Rule[]> {
    this.reads++;
    const snapshot = this.rules.map((r) => ({ ...r }));
    if (this.held) await new Promise<void>((resolve) => this.#release.push(resolve));
    return snapshot;
  }

  release(): void {
    for (const resolve of this.#release.splice(0)) resolve();
  }

  watch(listener: () => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  notify(): void {
    for (const listener of this.#listeners) listener();
  }
}

function setup(refreshMs = 10_000) {
  const source = new Source();
  const clock = new ManualClock(1_000_000);
  const logged: unknown[] = [];
  const logger = createLogger({ level: 'warn' });
  logger.warn = ((obj: unknown, msg: string) => void logged.push([obj, msg])) as typeof logger.warn;
  const compiles: string[] = [];
  const cache = new RuleCache<Rule, { id: string; regex: RegExp }>({
    source,
    kind: 'test rule',
    refreshMs,
    clock,
    logger,
    order: (a, b) => (a.priority ?? 0) - (b.priority ?? 0),
    compile: (rule) => {
      compiles.push(rule._id);
      return { id: rule._id, regex: new RegExp(rule.pattern) };
    },
  });
  return { source, clock, logged, compiles, cache };
}

describe('RuleCache', () => {
  it('reads once for callers asking together, and compiles each rule once per version', async () => {
    const { source, cache, compiles } = setup();
    source.rules = [{ _id: 'b', pattern: 'b', priority: 2 }, { _id: 'a', pattern: 'a', priority: 1 }];
    source.held = true;
    const asked = [cache.rules(), cache.rules(), cache.rules()];
    source.release();
    const answers = await Promise.all(asked);
    expect(source.reads).toBe(1);
    expect(answers[0]?.map((r) => r.id)).toEqual(['a', 'b']);
    expect(answers[1]).toBe(answers[0]);
    source.held = false;
    source.rules = [{ _id: 'b', pattern: 'b', priority: 2 }, { _id: 'a', pattern: 'a2', priority: 3 }];
    cache.invalidate();
    expect((await cache.rules()).map((r) => r.id)).toEqual(['b', 'a']);
    expect(compiles).toEqual(['a', 'b', 'a']);
  });

  it('logs a rule that cannot be compiled once per version and leaves it out', async () => {
    const { source, cache, logged } = setup();
    source.rules = [{ _id: 'bad', pattern: '(' }, { _id: 'ok', pattern: 'x' }];
    expect((await cache.rules()).map((r) => r.id)).toEqual(['ok']);
    cache.invalidate();
    expect((await cache.rules()).map((r) => r.id)).toEqual(['ok']);
    expect(logged).toHaveLength(1);
    expect(logged[0]).toEqual([{ rule: 'bad', problem: expect.stringContaining('Invalid regular expression') }, 'test rule skipped: it cannot be applied']);
    source.rules = [{ _id: 'bad', pattern: '[' }];
    cache.invalidate();
    expect(await cache.rules()).toEqual([]);
    expect(logged).toHaveLength(2);
  });

  it('reads again after a local write, a change notification, an invalidation or the refresh period, and not otherwise', async () => {
    const { source, cache, clock } = setup(5_000);
    source.rules = [{ _id: 'a', pattern: 'a' }];
    await cache.rules();
    await cache.rules();
    expect(source.reads).toBe(1);
    source.writes++;
    await cache.rules();
    expect(source.reads).toBe(2);
    source.notify();
    await cache.rules();
    expect(source.reads).toBe(3);
    clock.advance(4_999);
    await cache.rules();
    expect(source.reads).toBe(3);
    clock.advance(1);
    await cache.rules();
    expect(source.reads).toBe(4);
    cache.close();
    source.notify();
    await cache.rules();
    expect(source.reads).toBe(4);
  });

  it('a change notified while the rules are being read makes the next caller read them again', async () => {
    const { source, cache } = setup();
    source.rules = [{ _id: 'a', pattern: 'a' }];
    source.held = true;
    const first = cache.rules();
    source.rules = [{ _id: 'a', pattern: 'a' }, { _id: 'b', pattern: 'b' }];
    source.notify();
    const second = cache.rules();
    source.release();
    source.held = false;
    expect((await first).map((r) => r.id)).toEqual(['a']);
    expect((await second).map((r) => r.id)).toEqual(['a', 'b']);
    expect((await cache.rules()).map((r) => r.id)).toEqual(['a', 'b']);
    expect(source.reads).toBe(2);
  });
});
