// The runtime's metrics page: the exposition reader, the quantiles from buckets, and what
// the NRI series say about each plugin, against the recorded containerd 2.3 page.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ExpositionError, nriMetrics, parseExposition, quantile } from '../../src/session/index.js';

const page = (name: string) => readFileSync(new URL(`../fixtures/containerd-metrics/${name}`, import.meta.url), 'utf8');

describe('parseExposition', () => {
  it('reads names, escaped labels, special values, and skips comments and timestamps', () => {
    const s = parseExposition(
      '# HELP x y\n# TYPE x counter\nx 1\ny{a="q\\"u\\\\o\\nte",b=""} +Inf 1700000000000\nz{} NaN\nw -1.5e-3\r\n\n',
    );
    expect(s.map((x) => x.name)).toEqual(['x', 'y', 'z', 'w']);
    expect(s[1].labels).toEqual({ a: 'q"u\\o\nte', b: '' });
    expect(s[1].value).toBe(Infinity);
    expect(Number.isNaN(s[2].value)).toBe(true);
    expect(s[3].value).toBe(-0.0015);
  });

  it.each([
    ['x{a="1', 'line 1: the value of label a is not closed'],
    ['x{a="1" 2', 'line 1: expected , or } after label a'],
    ['x{a=1} 2', 'line 1: expected a quoted value for label a'],
    ['x 1 2 3', 'line 1: expected a value (and an optional timestamp) after x'],
    ['x one', 'line 1: "one" is not a number'],
    ['ok 1\n{a="b"} 1', 'line 2: not a metric name at the start of the line'],
  ])('refuses %j with the line at fault', (text, message) => {
    expect(() => parseExposition(text)).toThrow(new ExpositionError(0, '').constructor);
    expect(() => parseExposition(text)).toThrow(message);
  });

  it('reads the whole recorded page: 296 lines, every series', () => {
    const samples = parseExposition(page('dropped-30-slow.prom'));
    expect(samples).toHaveLength(296 - 8);
  });
});

describe('quantile', () => {
  const b = (pairs: Array<[number, number]>) => pairs.map(([le, count]) => ({ le, count }));
  it("interpolates within the bucket as Prometheus' histogram_quantile does", () => {
    expect(
      quantile(
        0.5,
        b([
          [1, 0],
          [2, 10],
          [Infinity, 10],
        ]),
      ),
    ).toEqual({ value: 1.5, atLeast: 1 });
  });
  it('in the +Inf bucket: the highest finite bound, and no more', () => {
    expect(
      quantile(
        0.99,
        b([
          [1, 0],
          [Infinity, 3],
        ]),
      ),
    ).toEqual({ value: 1, atLeast: 1 });
  });
  it('no observations: no quantile', () => {
    expect(
      quantile(
        0.99,
        b([
          [1, 0],
          [Infinity, 0],
        ]),
      ),
    ).toBeUndefined();
  });
});

describe('nriMetrics', () => {
  it('names every plugin, counts calls and errors, and marks the one that failed fatally and left as gone', () => {
    const m = nriMetrics(parseExposition(page('dropped-30-slow.prom')));
    expect(m.activePlugins).toBe(2);
    expect(m.plugins.map((p) => [p.plugin, p.state, p.invocations, p.errors])).toEqual([
      ['10-resource-policy', 'active', 8, 0],
      ['30-slow', 'gone', 5, 1],
      ['50-logger', 'active', 34, 0],
    ]);
    const slow = m.plugins[1];
    expect(slow.fatal).toBe('CreateContainer: deadline_exceeded');
    expect(m.plugins.map((p) => p.fatalCount)).toEqual([0, 1, 0]);
    // The recorded page has no process collector: when the runtime started is not known.
    expect(m.runtimeStartedMs).toBeUndefined();
    const create = slow.operations.find((o) => o.operation === 'CreateContainer')!;
    expect(create.errors).toEqual({ deadline_exceeded: 1 });
    expect(create.p99AtLeast).toBe(1);
    expect(create.p99).toBeCloseTo(1 + 1.5 * 0.99, 6);
    expect(create.mean).toBeCloseTo(6.8068 / 4, 9);
  });

  it('the same plugin before its timeout is active, its latency past half the timeout', () => {
    const m = nriMetrics(parseExposition(page('slow-30-slow.prom')));
    expect(m.activePlugins).toBe(3);
    expect(m.plugins.map((p) => p.state)).toEqual(['active', 'active', 'active']);
  });

  it("the runtime's start time from client_golang's process collector", () => {
    const m = nriMetrics(parseExposition('containerd_nri_active_plugins_total 0\nprocess_start_time_seconds 1.7e9\n'));
    expect(m.runtimeStartedMs).toBe(1.7e12);
  });

  it('a page without NRI series (containerd before 2.3, or another exporter) has no active count', () => {
    expect(nriMetrics(parseExposition('go_goroutines 12\n')).activePlugins).toBeUndefined();
  });

  it('more fatal failures than plugins gone: "failed", since some may have reconnected', () => {
    const failedToo =
      'containerd_nri_plugin_invocations_total{error="other",operation="StopContainer",plugin="50-logger",status="error"} 1\n';
    const m = nriMetrics(parseExposition(page('dropped-30-slow.prom') + failedToo));
    expect(m.plugins.map((p) => p.state)).toEqual(['active', 'failed', 'failed']);
  });
});
