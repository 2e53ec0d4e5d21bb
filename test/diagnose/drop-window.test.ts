// When a plugin counts as dropped: containerd's cumulative counters compared across
// readings (the exporter), or a single reading against the runtime's start time.
import { describe, expect, it } from 'vitest';
import { DropHistory } from '../../src/diagnose/index.js';
import { droppedInOneReading, listedState } from '../../src/diagnose/drop-window.js';
import type { NriMetrics } from '../../src/session/index.js';

const MIN = 60_000;

/** A page's NRI figures: each plugin with its fatal failures so far. */
function reading(fatal: Record<string, number>, startedMs?: number): NriMetrics {
  return {
    activePlugins: 0,
    plugins: Object.entries(fatal).map(([plugin, fatalCount]) => ({
      plugin,
      state: fatalCount > 0 ? 'gone' : 'active',
      invocations: 1,
      errors: fatalCount,
      fatalCount,
      operations: [],
    })),
    ...(startedMs !== undefined ? { runtimeStartedMs: startedMs } : {}),
  };
}

describe('DropHistory', () => {
  it('the first reading is the baseline: failures counted before it are history', () => {
    const h = new DropHistory(5 * MIN);
    expect([...h.observe(reading({ '00-nrictl-conformance': 1, '10-a': 0 }), 0)]).toEqual([]);
  });

  it('a count that rose is dropped for the window, then no longer', () => {
    const h = new DropHistory(5 * MIN);
    h.observe(reading({ '10-a': 0 }), 0);
    expect([...h.observe(reading({ '10-a': 1 }), 1 * MIN)]).toEqual(['10-a']);
    expect([...h.observe(reading({ '10-a': 1 }), 5 * MIN)]).toEqual(['10-a']);
    expect([...h.observe(reading({ '10-a': 1 }), 6 * MIN + 1)]).toEqual([]);
    // It fails again: dropped again.
    expect([...h.observe(reading({ '10-a': 2 }), 7 * MIN)]).toEqual(['10-a']);
  });

  it('a plugin new since the last reading that already failed was dropped within the window', () => {
    const h = new DropHistory(5 * MIN);
    h.observe(reading({ '10-a': 0 }), 0);
    expect([...h.observe(reading({ '10-a': 0, '90-test': 1 }), MIN)]).toEqual(['90-test']);
  });

  it('a runtime restarted since counts afresh: its failures are new, a count that went down included', () => {
    const h = new DropHistory(5 * MIN);
    h.observe(reading({ '10-a': 3 }, 0), 10 * MIN);
    expect([...h.observe(reading({ '10-a': 1 }, 11 * MIN), 12 * MIN)]).toEqual(['10-a']);
    const g = new DropHistory(5 * MIN);
    g.observe(reading({ '10-a': 3 }), 0);
    expect([...g.observe(reading({ '10-a': 1 }), MIN)]).toEqual(['10-a']);
  });

  it('forgets plugins the runtime no longer names', () => {
    const h = new DropHistory(5 * MIN);
    h.observe(reading({}), 0);
    expect([...h.observe(reading({ '10-a': 1 }), MIN)]).toEqual(['10-a']);
    expect([...h.observe(reading({}), 2 * MIN)]).toEqual([]);
  });

  it('a runtime that started within the window: even the first reading is recent', () => {
    const h = new DropHistory(5 * MIN);
    expect([...h.observe(reading({ '10-a': 1 }, 100 * MIN), 102 * MIN)]).toEqual(['10-a']);
  });
});

describe('one reading', () => {
  it('only a runtime started within the window makes its failures recent', () => {
    expect([...droppedInOneReading(reading({ '10-a': 1, '20-b': 0 }, 0), 4 * MIN, 5 * MIN)]).toEqual(['10-a']);
    expect([...droppedInOneReading(reading({ '10-a': 1 }, 0), 6 * MIN, 5 * MIN)]).toEqual([]);
    expect([...droppedInOneReading(reading({ '10-a': 1 }), 0, 5 * MIN)]).toEqual([]);
  });

  it('history: a pre-started plugin is not running, any other gone; lately: dropped', () => {
    expect(listedState('gone', 'plugin-dir', false)).toBe('not-running');
    expect(listedState('gone', 'external', false)).toBe('gone');
    expect(listedState('failed', 'external', false)).toBe('failed');
    expect(listedState('failed', 'external', true)).toBe('dropped');
    expect(listedState('gone', 'plugin-dir', true)).toBe('dropped');
  });
});
