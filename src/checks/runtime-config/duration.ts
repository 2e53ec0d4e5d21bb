import { DurationError, GO_DURATION_MAX_MS, parseDuration, type DurationRules } from '../../units/index.js';

/**
 * Timeouts in containerd's and CRI-O's configs are read with Go's time.ParseDuration:
 * zero and negative values parse (their own finding, timeout-not-positive, says what they
 * do), and anything up to Go's int64 nanoseconds is a valid value for the runtime.
 */
const AS_GO_READS_IT: DurationRules = { allowZero: true, allowNegative: true, maxMs: GO_DURATION_MAX_MS };

/** Milliseconds of a config's duration value, or why the runtime would refuse it. */
export function configDuration(text: string): { ms: number } | { error: string } {
  try {
    return { ms: parseDuration(text, AS_GO_READS_IT) };
  } catch (err) {
    if (err instanceof DurationError) return { error: err.reason };
    throw err;
  }
}

/** Milliseconds of a config's duration value; undefined when the runtime would refuse it. */
export function goDurationMs(text: string): number | undefined {
  const d = configDuration(text);
  return 'ms' in d ? d.ms : undefined;
}
