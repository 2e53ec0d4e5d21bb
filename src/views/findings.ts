// Findings (validate, lint, doctor) for people: a table (severity, path, finding, fix) when
// the terminal is wide enough to show every path and fix whole, else one block per
// finding; into a pipe nothing is wrapped (see findings-layout.ts). Paths under `base`
// are shown relative to it to keep rows short.
import type { Finding, FindingCounts } from '../checks/index.js';
import { chalk, fitProse } from '../output/index.js';
import { renderFindings } from './findings-layout.js';
import { plural } from '../units/index.js';

const RANK = { error: 0, warning: 1, info: 2 } as const;

/** Errors first, then warnings, then notes; within a severity by path, so output is stable. */
function sortedFindings(findings: readonly Finding[]): Finding[] {
  return [...findings].sort(
    (a, b) => RANK[a.severity] - RANK[b.severity] || a.path.localeCompare(b.path) || a.code.localeCompare(b.code),
  );
}

export function countedFindings(findings: readonly Finding[]): FindingCounts {
  const counts: FindingCounts = { error: 0, warning: 0, info: 0 };
  for (const f of findings) counts[f.severity]++;
  return counts;
}

export function findingsText(findings: readonly Finding[], width: number | undefined, base?: string): string {
  if (findings.length === 0) return chalk.green('No findings.');
  return renderFindings(
    sortedFindings(findings).map((f) => ({ ...f, path: shorten(f.path, base) })),
    { width },
  );
}

function shorten(path: string, base?: string): string {
  const dir = base?.replace(/\/$/, '');
  if (dir && path.startsWith(`${dir}/`)) return path.slice(dir.length + 1);
  return path;
}

/** "1 error, 0 warnings, 2 notes", coloured by the worst; fitted to `width` at spaces. */
export function summaryLine(findings: readonly Finding[], width?: number): string {
  const c = countedFindings(findings);
  const skipped = findings.filter((f) => f.code === 'not-checked').length;
  const text = `${plural(c.error, 'error')}, ${plural(c.warning, 'warning')}, ${plural(c.info, 'note')}${skipped ? `; ${skipped} not checked (run as root to check ${skipped === 1 ? 'it' : 'them'})` : ''}`;
  return fitProse(text, width, c.error ? chalk.red : c.warning ? chalk.yellow : chalk.green);
}

/** The findings as data: sorted, with their counts. */
export function findingsData(findings: readonly Finding[]): { findings: Finding[]; counts: FindingCounts } {
  return { findings: sortedFindings(findings), counts: countedFindings(findings) };
}
