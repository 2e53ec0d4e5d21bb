// `nrictl conformance --sim --preset all`: every check against every runtime release line
// the simulator imitates, one mark per cell, then what did not pass, grouped. The
// reasons are made comparable across presets: ids and run ids are left out.
import type { CheckVerdict, ConformanceMatrix, PresetColumn } from '../conformance/index.js';
import { alignColumns, chalk, fitProse, type View } from '../output/index.js';
import { reasonOf } from './conformance.js';

const MARK: Record<CheckVerdict['status'], string> = { pass: '✓', fail: '✗', skip: '-', error: 'E' };

function mark(v: CheckVerdict | undefined, column: PresetColumn): string {
  if (column.notApplicable) return chalk.dim('·');
  if (!v) return ' ';
  if (v.status === 'fail' && v.known) return chalk.yellow('!');
  return v.status === 'pass'
    ? chalk.green(MARK.pass)
    : v.status === 'fail'
      ? chalk.red(MARK.fail)
      : chalk.dim(MARK[v.status]);
}

/**
 * A reason as it reads on every preset and every check: container and pod ids, the run's
 * id, and the check's number in a pod's name ("p-c33") left out.
 */
function generic(reason: string, runId: string | undefined): string {
  // The run's id wherever it is, such as inside the names iSulad gives pods (k8s_POD_..._<run>-p-c1_1).
  return (runId ? reason.replaceAll(runId, '<run>') : reason)
    .replace(/\b[0-9a-f]{64}\b/g, '<id>')
    .replace(/\b([a-z-]+-)[0-9a-f]{8}\b/g, '$1<run>')
    .replace(/\bpod ([a-z][a-z0-9]*)-c\d+\b/g, 'pod $1-c<n>');
}

export const conformanceMatrixView: View<ConformanceMatrix> = {
  text(m, { width }) {
    const n = column;
    const legend = m.presets.map((p, i) => `${n(i)} ${p.preset}`).join(', ');
    const head = ['CHECK', ...m.presets.map((_, i) => n(i))].map((h) => chalk.bold(h));
    const body = m.checks.map((c) => [
      c.name,
      ...m.presets.map((p) =>
        mark(
          p.verdicts.find((v) => v.name === c.name),
          p,
        ),
      ),
    ]);
    const lines = [
      fitProse(`Presets: ${legend}.`, width),
      fitProse('✓ pass, ✗ fail, ! fail known upstream, - skipped, E error, · not applicable.', width),
      '',
      ...alignColumns([head, ...body], ' '),
    ];
    const notes = notPassed(m);
    if (notes.length > 0)
      lines.push('', chalk.bold('Not passed:'), ...notes.map((t) => fitProse(`  ${t}`, width, undefined, 4)));
    for (const p of m.presets.filter((c) => c.notApplicable))
      lines.push('', fitProse(`${p.preset}: not applicable: ${p.notApplicable}`, width));
    lines.push('', summary(m));
    return lines.join('\n');
  },
  data: (m) => m,
};

/** A preset's column: a, b, c, ... */
function column(i: number): string {
  return String.fromCharCode(97 + i);
}

/**
 * One line per reason: the checks it holds for (a group's every check as "group/*") and
 * the presets, by column.
 */
function notPassed(m: ConformanceMatrix): string[] {
  // First by check and reason, to find the presets of each.
  const byCheck = new Map<string, { check: string; status: string; reason: string; presets: number[] }>();
  m.presets.forEach((p, i) => {
    for (const v of p.verdicts) {
      if (v.status === 'pass') continue;
      const reason = generic(reasonOf(v), p.runId);
      const key = `${v.name}\n${v.status}\n${reason}`;
      const g = byCheck.get(key) ?? { check: v.name, status: v.status, reason, presets: [] };
      g.presets.push(i);
      byCheck.set(key, g);
    }
  });
  // Then the checks that share a reason on the same presets.
  const lines = new Map<string, { checks: string[]; status: string; reason: string; presets: number[] }>();
  for (const g of byCheck.values()) {
    const key = `${g.status}\n${g.reason}\n${g.presets.join()}`;
    const line = lines.get(key) ?? { checks: [], status: g.status, reason: g.reason, presets: g.presets };
    line.checks.push(g.check);
    lines.set(key, line);
  }
  const order = new Map(m.checks.map((c, i) => [c.name, i]));
  const first = (l: { checks: string[] }) => Math.min(...l.checks.map((c) => order.get(c) ?? 0));
  return [...lines.values()]
    .sort((a, b) => first(a) - first(b) || a.presets[0] - b.presets[0])
    .map((l) => `${checkList(m, l.checks)} (${l.status}) on ${ranges(l.presets)}: ${l.reason}`);
}

/** The checks, a group whose every check is there as "group/*". */
function checkList(m: ConformanceMatrix, checks: string[]): string {
  const groups = new Set(checks.map((c) => c.split('/')[0]));
  const out: string[] = [];
  for (const g of groups) {
    const all = m.checks.filter((c) => c.name === g || c.name.startsWith(`${g}/`)).map((c) => c.name);
    const here = checks.filter((c) => c === g || c.startsWith(`${g}/`));
    if (all.length > 1 && all.every((c) => here.includes(c))) out.push(`${g}/*`);
    else out.push(...here);
  }
  return out.join(', ');
}

/** "a-d, f, i": preset columns as ranges. */
function ranges(ns: number[]): string {
  const out: string[] = [];
  for (let i = 0; i < ns.length;) {
    let j = i;
    while (j + 1 < ns.length && ns[j + 1] === ns[j] + 1) j++;
    out.push(j > i ? `${column(ns[i])}-${column(ns[j])}` : column(ns[i]));
    i = j + 1;
  }
  return out.join(', ');
}

function summary(m: ConformanceMatrix): string {
  const all = m.presets.flatMap((p) => p.verdicts);
  const count = (s: CheckVerdict['status']) => all.filter((v) => v.status === s).length;
  const known = all.filter((v) => v.status === 'fail' && v.known).length;
  const ran = m.presets.filter((p) => !p.notApplicable).length;
  return `${m.presets.length} presets (${ran} ran, ${m.presets.length - ran} not applicable) × ${m.checks.length} checks: ${count('pass')} passed, ${count('fail')} failed (${known} known upstream), ${count('skip')} skipped, ${count('error')} errors${m.interrupted ? '; interrupted' : ''}`;
}
