// Durations as operators write them on a command line: "2s", "500ms", "1m30s", "1.5s".
// A bare number is refused: "--timeout 5" could mean seconds or milliseconds, and a
// guess that is wrong by a factor of 1000 is worse than asking for a unit.

import type { ErrorKind } from '../errors/index.js';
export class DurationError extends Error {
  override readonly name = 'DurationError';
  readonly kind: ErrorKind = 'usage';
  constructor(
    readonly input: string,
    reason: string,
    /** What the value was given for ("--timeout"); named in the message. */
    what = 'duration',
  ) {
    super(`invalid ${what} '${input}': ${reason}`);
  }
}

const UNIT_MS: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000 };
const PART = /(\d+(?:\.\d+)?|\.\d+)(ms|s|m|h)/gy;

/** Milliseconds in a duration such as "2s", "250ms", "1m30s"; throws DurationError. */
export function parseDuration(text: string, what?: string): number {
  const t = text.trim();
  const fail = (reason: string): DurationError => new DurationError(text, reason, what);
  if (t === '') throw fail('it is empty; write it with a unit, such as 2s or 500ms');
  if (/^[+-]?\d+(\.\d+)?$/.test(t)) throw fail(`it has no unit; write ${t}s or ${t}ms`);
  if (t.startsWith('-')) throw fail('a duration cannot be negative');
  PART.lastIndex = 0;
  let total = 0;
  let end = 0;
  for (let m = PART.exec(t); m; m = PART.exec(t)) {
    total += Number(m[1]) * UNIT_MS[m[2]];
    end = PART.lastIndex;
  }
  if (end !== t.length) throw fail('write it as a number and a unit (ms, s, m, h), such as 2s, 500ms or 1m30s');
  if (total <= 0) throw fail('it must be longer than zero');
  return Math.round(total);
}

/** 2000 -> "2s", 1500 -> "1.5s", 250 -> "250ms", 90000 -> "90s". */
export function formatDuration(ms: number): string {
  if (ms < 1000) return `${Math.round(ms)}ms`;
  const s = ms / 1000;
  return `${Number.isInteger(s) ? s : s.toFixed(1).replace(/\.0$/, '')}s`;
}
