// When trace calls a plugin dropped: its time between the probes against the runtime's
// request timeout, judged on the raw time (a busy node's probe hops and timers must not
// hide a plugin the runtime gave up on), and no plugin that answered well within it.
import { describe, expect, it } from 'vitest';
import { LatencyStats } from '../../src/trace/stats.js';
import type { TraceRecord } from '../../src/trace/tracer.js';

function record(ms: number, rawMs: number): TraceRecord {
  return {
    time: 0,
    event: 'CreateContainer',
    pod: { id: 'p', namespace: 'ns', name: 'web', uid: 'u', cgroupParent: '' },
    container: { id: 'c', name: 'app' },
    segments: [
      {
        label: '30-late',
        plugins: ['30-late'],
        group: false,
        calibration: false,
        from: '20',
        to: '40',
        ms,
        rawMs,
        changes: [],
      },
    ],
    totalMs: ms,
    hopMs: rawMs - ms,
    end: 'complete',
    attribution: 'probes',
  };
}

const lateAt = (ms: number, rawMs: number): boolean => {
  const stats = new LatencyStats();
  stats.add(record(ms, rawMs));
  return stats.rows(1000)[0].late;
};

describe('a plugin the runtime gave up on', () => {
  it('is told by the raw time between the probes, though a busy node made the hop taken out of it large', () => {
    // Seen at load 10: 988 ms left after a 40 ms median hop was taken out of the gap.
    expect(lateAt(948, 988)).toBe(true);
  });

  it('is told though the simulated runtime’s timer fired a little early by our clock', () => {
    expect(lateAt(975, 980)).toBe(true);
  });

  it('is not a plugin that answered with a tenth of the timeout to spare', () => {
    expect(lateAt(880, 900)).toBe(false);
  });
});
