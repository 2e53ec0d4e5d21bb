import { describe, expect, it } from 'vitest';
import {
  DurationError,
  GO_DURATION_MAX_MS,
  TIMER_MAX_MS,
  excerpt,
  formatDuration,
  parseDuration,
} from '../../src/units/index.js';

const message = (f: () => unknown): string => {
  try {
    f();
  } catch (err) {
    expect(err).toBeInstanceOf(DurationError);
    return (err as Error).message;
  }
  throw new Error('expected a DurationError');
};

describe('parseDuration: Go syntax, one parser for flags and config files', () => {
  it.each([
    ['1h2m3.5s', 3_723_500],
    ['300ms', 300],
    ['1.5h', 5_400_000],
    ['2s', 2000],
    ['1m30s', 90_000],
    ['.5s', 500],
    ['5.s', 5000],
    ['+2s', 2000],
    ['1500us', 1.5],
    ['1500µs', 1.5],
    ['1500μs', 1.5],
    ['2000000ns', 2],
    ['1h1h', 7_200_000],
  ])('%s is %d ms', (text, ms) => {
    expect(parseDuration(text)).toBeCloseTo(ms, 9);
  });

  it('a bare number is refused with one message naming what it was for', () => {
    expect(message(() => parseDuration('2'))).toBe('2: a duration needs a unit, such as 2s or 500ms');
    expect(message(() => parseDuration('2', { what: '--timeout' }))).toBe(
      '--timeout 2: a duration needs a unit, such as 2s or 500ms',
    );
    expect(message(() => parseDuration('1.5'))).toBe('1.5: a duration needs a unit, such as 2s or 500ms');
  });

  it.each(['', '5x', '5 s', ' 5s', '5s ', 's', '.s', '1.5.5s', '--5s', '5sec', '1d'])('%j is refused', (text) => {
    expect(() => parseDuration(text)).toThrow(DurationError);
  });

  it('names an unknown unit', () => {
    expect(message(() => parseDuration('5x'))).toMatch(/^5x: unknown unit "x"; /);
  });

  it('refuses anything beyond the timer limit (Node would fire such a timer at once)', () => {
    expect(parseDuration(`${TIMER_MAX_MS}ms`)).toBe(TIMER_MAX_MS);
    expect(message(() => parseDuration('600h', { what: '--timeout' }))).toBe(
      '--timeout 600h: longer than the longest wait nrictl can time, 596h31m23.647s (2^31-1 ms)',
    );
    expect(() => parseDuration(`${TIMER_MAX_MS + 1}ms`)).toThrow(DurationError);
  });

  it('zero and negative values only where asked for (Go accepts them in config files)', () => {
    expect(message(() => parseDuration('0'))).toBe('0: a duration must be longer than zero');
    expect(message(() => parseDuration('0s'))).toBe('0s: a duration must be longer than zero');
    expect(message(() => parseDuration('-5s'))).toBe('-5s: a duration cannot be negative');
    const go = { allowZero: true, allowNegative: true, maxMs: GO_DURATION_MAX_MS };
    expect(parseDuration('0', go)).toBe(0);
    expect(parseDuration('-5s', go)).toBe(-5000);
    expect(parseDuration('600h', go)).toBe(600 * 3_600_000);
    expect(() => parseDuration('3000000h', go)).toThrow(/longer than the longest duration allowed/);
  });

  it('quotes at most an excerpt of a long input', () => {
    const long = '1'.repeat(200_000);
    const m = message(() => parseDuration(long));
    expect(m.length).toBeLessThan(200);
    expect(m).toContain('…');
    expect(message(() => parseDuration(`1s${'x'.repeat(100_000)}`)).length).toBeLessThan(250);
  });

  // No clock: a parser that went back over the input would take minutes here, and the
  // suite's hang bound ends it; how fast it is, bench/ says.
  it('reads 200,000 parts in one pass', () => {
    expect(parseDuration('1ns'.repeat(200_000))).toBeCloseTo(0.2, 6);
  });
});

describe('formatDuration', () => {
  it.each([
    [250, '250ms'],
    [2000, '2s'],
    [1500, '1.5s'],
    [90_000, '90s'],
    [TIMER_MAX_MS, '596h31m23.647s'],
    [7_200_000, '2h'],
  ])('%d ms is %s', (ms, text) => {
    expect(formatDuration(ms)).toBe(text);
  });
});

describe('excerpt', () => {
  it('keeps short text and cuts long text with an ellipsis', () => {
    expect(excerpt('abc')).toBe('abc');
    expect(excerpt('a'.repeat(61))).toBe(`${'a'.repeat(60)}…`);
    expect(excerpt('a\nb')).toBe('a\\nb');
    expect(excerpt('a\rb\u0000c\u2028')).toBe('a\\rb\\u0000c\\u2028');
  });
});
