import chalk from 'chalk';
import { renderFindings } from '../render/findings-layout.js';
import { outputColumns } from '../render/output-width.js';
import { countFindings, sortFindings, type Finding } from './finding.js';

/**
 * Findings for people: a table (severity, path, finding, fix) when the terminal is wide
 * enough to show every path and fix whole, else one block per finding; in a pipe,
 * nothing is wrapped (see render/findings-layout.ts). Returns text; the command prints
 * it. Paths under `base` are shown relative to it to keep rows short. `width`: the
 * columns to fit, by default those of stdout (outputColumns).
 */
export function findingsTable(findings: Finding[], base?: string, width: number | undefined = outputColumns()): string {
  if (findings.length === 0) return chalk.green('No findings.');
  return renderFindings(
    sortFindings(findings).map((f) => ({ ...f, path: shorten(f.path, base) })),
    { width },
  );
}

function shorten(path: string, base?: string): string {
  if (base && path.startsWith(`${base.replace(/\/$/, '')}/`)) return path.slice(base.replace(/\/$/, '').length + 1);
  return path;
}

export function summaryLine(findings: Finding[]): string {
  const c = countFindings(findings);
  const plural = (n: number, w: string) => `${n} ${w}${n === 1 ? '' : 's'}`;
  const skipped = findings.filter((f) => f.code === 'not-checked').length;
  const text = `${plural(c.error, 'error')}, ${plural(c.warning, 'warning')}, ${plural(c.info, 'note')}${skipped ? `; ${skipped} not checked (run as root to check ${skipped === 1 ? 'it' : 'them'})` : ''}`;
  return c.error ? chalk.red(text) : c.warning ? chalk.yellow(text) : chalk.green(text);
}
