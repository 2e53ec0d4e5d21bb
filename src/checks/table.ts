import chalk from 'chalk';
import Table from 'cli-table3';
import { countFindings, sortFindings, type Finding } from './finding.js';

/**
 * Findings as a table for people: severity, path, finding, fix. Returns text; the
 * command prints it. Paths under `base` are shown relative to it to keep rows short.
 */
export function findingsTable(findings: Finding[], base?: string): string {
  if (findings.length === 0) return chalk.green('No findings.');
  const width = process.stdout.columns && process.stdout.columns > 60 ? process.stdout.columns : 120;
  const pathW = Math.max(12, Math.floor(width * 0.22));
  const fixW = Math.max(16, Math.floor(width * 0.25));
  const msgW = Math.max(20, width - pathW - fixW - 10 - 13);
  const table = new Table({
    head: ['severity', 'path', 'finding', 'fix'].map((h) => chalk.bold(h)),
    colWidths: [10, pathW, msgW, fixW],
    wordWrap: true,
    wrapOnWordBoundary: true,
    style: { head: [], border: [] },
  });
  for (const f of sortFindings(findings)) {
    table.push([paint(f.severity), shorten(f.path, base), `${f.message} ${chalk.dim(`[${f.code}]`)}`, f.fix]);
  }
  return table.toString();
}

function paint(severity: Finding['severity']): string {
  return severity === 'error' ? chalk.red(severity) : severity === 'warning' ? chalk.yellow(severity) : chalk.dim(severity);
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
