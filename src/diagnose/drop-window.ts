// When a plugin counts as dropped. containerd's NRI counters are cumulative since the
// runtime started, and a plugin that ever failed a call fatally stays counted: every
// transient plugin (a conformance run's, critest's) that once did would read as dropped
// until the runtime restarts. So "dropped" means dropped within a window: its count of
// fatal failures rose since an earlier reading no longer ago than the window (the
// exporter, which reads every interval), or, with a single reading, the runtime itself
// started within the window (so every failure it counts is that recent). Anything
// older is history: shown as such, never an alarm.
import type { NriMetrics } from '../session/index.js';
import type { ListedPlugin, ListedState } from './listed-plugin.js';

/**
 * Long enough that every Prometheus scraping the exporter (kube-prometheus' 30 s,
 * Prometheus' default 1 min) sees a drop at least a few times, and its alert fires;
 * short enough that a plugin long gone stops being reported.
 */
export const DROP_WINDOW_MS = 5 * 60_000;

/** Readings of one runtime's metrics over time: which plugins failed fatally lately. */
export class DropHistory {
  private last: Map<string, number> | undefined;
  private lastStartedMs: number | undefined;
  /** Plugin -> when its fatal count was last seen to rise; only plugins the runtime still names. */
  private readonly rose = new Map<string, number>();

  constructor(readonly windowMs: number = DROP_WINDOW_MS) {}

  /**
   * Takes a reading and returns the plugins dropped within the window. The first
   * reading is the baseline: what it counts may be older than the window, unless the
   * runtime started within it. A runtime restarted since (its start time moved, or a
   * count went down) has counted afresh.
   */
  observe(m: NriMetrics, nowMs: number): Set<string> {
    const restarted =
      m.runtimeStartedMs !== undefined && this.lastStartedMs !== undefined && m.runtimeStartedMs !== this.lastStartedMs;
    const fresh = startedWithin(m, nowMs, this.windowMs);
    const counts = new Map(m.plugins.map((p) => [p.plugin, p.fatalCount]));
    for (const [plugin, count] of counts) {
      if (count === 0) continue;
      const before = this.last === undefined || restarted ? undefined : this.last.get(plugin);
      // Fewer than before: counted afresh, so all of them are new.
      const risen = before === undefined ? this.last !== undefined || fresh : count !== before;
      if (risen) this.rose.set(plugin, nowMs);
    }
    // Bounded by what the runtime still names, and by the window.
    for (const [plugin, at] of this.rose)
      if (!counts.has(plugin) || nowMs - at > this.windowMs) this.rose.delete(plugin);
    this.last = counts;
    this.lastStartedMs = m.runtimeStartedMs;
    return new Set(this.rose.keys());
  }
}

/** A single reading: its fatal failures are recent only when the runtime started within the window. */
export function droppedInOneReading(m: NriMetrics, nowMs: number, windowMs: number = DROP_WINDOW_MS): Set<string> {
  if (!startedWithin(m, nowMs, windowMs)) return new Set();
  return new Set(m.plugins.filter((p) => p.fatalCount > 0).map((p) => p.plugin));
}

function startedWithin(m: NriMetrics, nowMs: number, windowMs: number): boolean {
  return m.runtimeStartedMs !== undefined && nowMs - m.runtimeStartedMs <= windowMs;
}

/**
 * A plugin whose fatal failures rose within the window is dropped. One that failed
 * before it and is gone for certain is history: a pre-started one is installed and not
 * running (the runtime does not start it again), any other is gone.
 */
export function listedState(
  state: 'active' | 'gone' | 'failed',
  origin: ListedPlugin['origin'],
  droppedLately: boolean,
): ListedState {
  if (droppedLately) return 'dropped';
  if (state === 'gone') return origin === 'plugin-dir' ? 'not-running' : 'gone';
  return state;
}
