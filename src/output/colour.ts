import chalk, { type ChalkInstance } from 'chalk';
import { stripVTControlCharacters } from 'node:util';

// Every render function colours through this module's chalk, so the policy that
// src/cli/base-command.ts applyColourPolicy sets (TTY detection, NO_COLOR,
// --no-color) decides whether any escape code is emitted. Nothing here decides
// colour on its own.

export type Severity = 'error' | 'warning' | 'info' | 'ok';

const SEVERITY_STYLE: Record<Severity, ChalkInstance> = {
  error: chalk.red.bold,
  warning: chalk.yellow,
  info: chalk.cyan,
  ok: chalk.green,
};

/** Colour text by severity (findings of validate/lint/doctor, notices). */
export function severityColour(severity: Severity, text: string): string {
  return SEVERITY_STYLE[severity](text);
}

/** True when the colour policy lets escape codes through. */
export function colourEnabled(): boolean {
  return chalk.level > 0;
}

/**
 * Runs fn with colours off and restores the policy afterwards: for output that
 * goes to a file (--output-file) even when stdout is a terminal.
 */
export function withoutColour<T>(fn: () => T): T {
  const level = chalk.level;
  chalk.level = 0;
  try {
    return fn();
  } finally {
    chalk.level = level;
  }
}

/**
 * The pieces of `make()` with colours off while each is made (a generator renders between
 * the writes of a file, and other output may be coloured meanwhile): withoutColour for
 * output written in pieces.
 */
export function* withoutColourEach<C>(make: () => Iterable<C>): Generator<C> {
  const chunks = withoutColour(() => make()[Symbol.iterator]());
  for (;;) {
    const next = withoutColour(() => chunks.next());
    if (next.done === true) return;
    yield next.value;
  }
}

/** Text without ANSI escapes, e.g. to measure the printed width of a coloured cell. */
export function stripColour(text: string): string {
  return stripVTControlCharacters(text);
}

export { chalk };
