/** One dependency as the watcher's state sees it. */
export interface WatchedDependency {
  /** Its open alarm's state and acknowledgement, or null without an open alarm. */
  alarm: { state: number; acknowledged: boolean } | null;
  /** It has an active pbehavior. */
  paused: boolean;
}

/** What an `output_template` sees (REFERENCE §5.8, the original's engine-watcher counters). */
export interface WatcherCounters {
  /** Open alarms of dependencies that are not paused. */
  Alarms: number;
  /** Dependencies by the state they count for: `Info` also holds those without an alarm and the paused ones. */
  State: { Info: number; Minor: number; Major: number; Critical: number };
  /** Among `Alarms`, the acknowledged ones. */
  Acknowledged: number;
  NotAcknowledged: number;
}

/** The counters of a watcher's dependencies; a paused dependency counts as `Info`, its alarm not at all (as the original). */
export function watcherCounters(dependencies: Iterable<WatchedDependency>): WatcherCounters {
  const counters: WatcherCounters = { Alarms: 0, State: { Info: 0, Minor: 0, Major: 0, Critical: 0 }, Acknowledged: 0, NotAcknowledged: 0 };
  for (const { alarm, paused } of dependencies) {
    if (alarm === null || paused) {
      counters.State.Info++;
      continue;
    }
    counters.Alarms++;
    if (alarm.acknowledged) counters.Acknowledged++;
    else counters.NotAcknowledged++;
    if (alarm.state >= 3) counters.State.Critical++;
    else if (alarm.state === 2) counters.State.Major++;
    else if (alarm.state === 1) counters.State.Minor++;
    else counters.State.Info++;
  }
  return counters;
}

/** Method `worst`, the only one: the worst state the counters hold. */
export function worstState(counters: WatcherCounters): number {
  if (counters.State.Critical > 0) return 3;
  if (counters.State.Major > 0) return 2;
  if (counters.State.Minor > 0) return 1;
  return 0;
}
