import { describe, expect, it } from 'vitest';
import { watcherCounters, worstState } from './watcher-state.js';

const alarm = (state: number, acknowledged = false) => ({ alarm: { state, acknowledged }, paused: false });

describe('watcher counters', () => {
  it('count the open alarms by state and acknowledgement; dependencies without an alarm are Info', () => {
    const counters = watcherCounters([alarm(3), alarm(2, true), alarm(1), alarm(0, true), { alarm: null, paused: false }]);
    expect(counters).toEqual({ Alarms: 4, State: { Info: 2, Minor: 1, Major: 1, Critical: 1 }, Acknowledged: 2, NotAcknowledged: 2 });
    expect(worstState(counters)).toBe(3);
  });

  it('count a paused dependency as Info and not its alarm, as the original did', () => {
    const counters = watcherCounters([{ alarm: { state: 3, acknowledged: false }, paused: true }, alarm(1)]);
    expect(counters).toEqual({ Alarms: 1, State: { Info: 1, Minor: 1, Major: 0, Critical: 0 }, Acknowledged: 0, NotAcknowledged: 1 });
    expect(worstState(counters)).toBe(1);
  });

  it('read a state above 3 as critical, and give 0 without dependencies', () => {
    expect(worstState(watcherCounters([alarm(7)]))).toBe(3);
    expect(worstState(watcherCounters([]))).toBe(0);
  });
});
