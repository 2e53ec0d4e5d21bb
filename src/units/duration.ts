// Durations, one parser for the command line and for the runtimes' configuration files:
// Go's time.ParseDuration syntax ("2s", "500ms", "1h2m3.5s", "1.5h"), which containerd and
// CRI-O read their timeouts with, so a value means the same on a flag and in a config.
// A unit is required: "--timeout 5" could mean seconds or milliseconds, and a guess that
// is wrong by a factor of 1000 is worse than asking for one.
import { excerpt } from './excerpt.js';

/**
 * The longest wait Node can time: setTimeout takes a signed 32-bit count of milliseconds
 * (about 24.8 days). A longer one is not refused by Node: it warns (TimeoutOverflowWarning)
 * and fires at once, so a deadline of "600h" would expire before anything was sent.
 */
export const TIMER_MAX_MS = 2 ** 31 - 1;

/** Go's time.Duration is an int64 of nanoseconds: about 292 years. Longer values are invalid to Go. */
export const GO_DURATION_MAX_MS = (2 ** 63 - 1) / 1e6;

import type { ErrorKind } from '../errors/index.js';
export class DurationError extends Error {
  override readonly name = 'DurationError';
  readonly kind: ErrorKind = 'usage';
  constructor(
    /** The text as given. */
    readonly input: string,
    /** What is wrong with it, without the input: "a duration needs a unit, such as 2s or 500ms". */
    readonly reason: string,
    /** What the value was given for ("--timeout"); named in the message. */
    readonly what?: string,
  ) {
    super(`${what ? `${what} ` : ''}${excerpt(input) || '""'}: ${reason}`);
  }
}

export interface DurationRules {
  /** What the value is for, such as "--timeout": named in the message. */
  what?: string;
  /** Accept 0 (Go does; config checks report it as a finding of their own). Default: refused. */
  allowZero?: boolean;
  /** Accept "-5s" (Go does). Default: refused. */
  allowNegative?: boolean;
  /** The longest duration accepted. Default TIMER_MAX_MS; config values take GO_DURATION_MAX_MS. */
  maxMs?: number;
}

// Go's unitMap: both spellings of the micro sign (U+00B5 and U+03BC) are accepted.
const UNIT_MS: Readonly<Record<string, number>> = {
  ns: 1e-6,
  us: 1e-3,
  µs: 1e-3,
  μs: 1e-3,
  ms: 1,
  s: 1000,
  m: 60_000,
  h: 3_600_000,
};

const SHAPE = 'write numbers with units (ns, us, ms, s, m, h), such as 2s, 500ms or 1h2m3.5s';

/**
 * Milliseconds in a Go duration ("2s", "250ms", "1m30s", "1.5h"), not rounded; throws
 * DurationError with a one-line message that quotes at most an excerpt of the input.
 * Whitespace is not trimmed, as Go does not: " 5s" in a config file stops the runtime.
 */
export function parseDuration(text: string, rules: DurationRules = {}): number {
  const fail = (reason: string): DurationError => new DurationError(text, reason, rules.what);
  let s = text;
  let negative = false;
  if (s[0] === '-' || s[0] === '+') {
    negative = s[0] === '-';
    s = s.slice(1);
  }
  let total = 0;
  if (s === '') throw fail(`a duration cannot be empty; ${SHAPE}`);
  if (s !== '0') {
    if (/^(\d+\.?\d*|\.\d+)$/.test(s)) throw fail('a duration needs a unit, such as 2s or 500ms');
    const NUMBER = /(\d*)(?:\.(\d*))?/y;
    let i = 0;
    while (i < s.length) {
      NUMBER.lastIndex = i;
      const number = NUMBER.exec(s)!;
      // Go: digits before or after the point, at least one; then a run of non-digits is the unit.
      if ((number[1] ?? '') === '' && (number[2] ?? '') === '') throw fail(SHAPE);
      i += number[0].length;
      let j = i;
      while (j < s.length && !/[\d.]/.test(s[j])) j++;
      const unit = s.slice(i, j);
      if (unit === '') throw fail(`a duration needs a unit after every number; ${SHAPE}`);
      const ms = UNIT_MS[unit];
      if (ms === undefined) throw fail(`unknown unit "${excerpt(unit, 12)}"; ${SHAPE}`);
      total += Number(`${number[1] || '0'}.${number[2] || '0'}`) * ms;
      i = j;
    }
  }
  if (negative && total > 0 && !rules.allowNegative) throw fail('a duration cannot be negative');
  if (total === 0 && !rules.allowZero) throw fail('a duration must be longer than zero');
  const max = rules.maxMs ?? TIMER_MAX_MS;
  if (total > max) {
    throw fail(
      max === TIMER_MAX_MS
        ? `longer than the longest wait nrictl can time, ${formatDuration(TIMER_MAX_MS)} (2^31-1 ms)`
        : `longer than the longest duration allowed, ${formatDuration(max)}`,
    );
  }
  return negative ? -total : total;
}

/** 2000 -> "2s", 1500 -> "1.5s", 250 -> "250ms", 90000 -> "90s", 2147483647 -> "596h31m23.647s". */
export function formatDuration(ms: number): string {
  if (ms < 1000) return `${Math.round(ms)}ms`;
  if (ms <= 3_600_000) {
    const s = ms / 1000;
    return `${Number.isInteger(s) ? s : s.toFixed(1).replace(/\.0$/, '')}s`;
  }
  const h = Math.floor(ms / 3_600_000);
  const m = Math.floor((ms % 3_600_000) / 60_000);
  const s = (ms % 60_000) / 1000;
  return `${h}h${m ? `${m}m` : ''}${s ? `${Number(s.toFixed(3))}s` : ''}`;
}
