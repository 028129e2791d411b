import { describe, expect, it } from 'vitest';
import { EventBus } from './event-bus.js';
import { eventRef } from './refs.js';

const thingChanged = eventRef<{ id: string }>('things.changed');

describe('EventBus', () => {
  it('calls handlers in subscription order, awaits them, and stops calling unsubscribed ones', async () => {
    const bus = new EventBus();
    const seen: string[] = [];
    const off = bus.on(thingChanged, async ({ id }) => {
      await new Promise((r) => setTimeout(r, 5));
      seen.push(`first ${id}`);
    });
    bus.on(thingChanged, ({ id }) => void seen.push(`second ${id}`));
    await bus.emit(thingChanged, { id: 'a' });
    off();
    await bus.emit(thingChanged, { id: 'b' });
    expect(seen).toEqual(['first a', 'second a', 'second b']);
    expect(bus.listenerCount(thingChanged)).toBe(1);
  });

  it('runs every handler even when some fail, and reports all failures', async () => {
    const bus = new EventBus();
    let ran = 0;
    bus.on(thingChanged, () => {
      throw new Error('one');
    });
    bus.on(thingChanged, () => {
      ran += 1;
    });
    bus.on(thingChanged, () => {
      throw new Error('two');
    });
    await expect(bus.emit(thingChanged, { id: 'x' })).rejects.toThrow('2 handlers of "things.changed" failed');
    expect(ran).toBe(1);
  });

  it('gives a feature a view that emits only its own events and hears only declared ones', async () => {
    const bus = new EventBus();
    const other = eventRef<{ id: string }>('others.changed');
    const view = bus.restrictedTo({ featureId: 'things', emits: new Set([thingChanged.id]), hears: new Set([thingChanged.id]) });
    const seen: string[] = [];
    view.on(thingChanged, ({ id }) => void seen.push(id));
    await view.emit(thingChanged, { id: 'a' });
    expect(seen).toEqual(['a']);
    expect(() => view.on(other, () => undefined)).toThrow('feature things listens to event others.changed, which it neither declares nor consumes (f.consume)');
    await expect(view.emit(other, { id: 'b' })).rejects.toThrow('feature things emits event others.changed, which it does not declare');
  });
});
