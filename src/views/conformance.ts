// `nrictl conformance`: one run's verdicts. For people a line per check (the reason under
// each one that did not pass), what could not be removed, and a summary; -o wide adds
// critest's number, where the time went and the notes; json and yaml the report as is.
import type { CheckVerdict, ConformanceReport, TargetInfo } from '../conformance/index.js';
import { alignColumns, chalk, fitProse, type View } from '../output/index.js';
import { formatDuration, plural } from '../units/index.js';

const RESULT: Record<CheckVerdict['status'], string> = { pass: 'pass', fail: 'FAIL', skip: 'skip', error: 'ERROR' };
const PAINT: Record<CheckVerdict['status'], (s: string) => string> = {
  pass: chalk.green,
  fail: chalk.red,
  skip: chalk.dim,
  error: chalk.yellow,
};

/** "1.2 s", "41.7 ms". */
function took(ms: number): string {
  return ms >= 1000 ? `${(ms / 1000).toFixed(1)} s` : `${ms.toFixed(1)} ms`;
}

/** The reason with its known upstream reference. */
export function reasonOf(v: CheckVerdict): string {
  return `${v.reason ?? ''}${v.known ? ` [known: ${v.known.ref}]` : ''}`;
}

/** What the run was against, in a sentence. */
export function targetText(t: TargetInfo, holdBoundMs?: number): string {
  const where = t.sim
    ? `the simulator (preset ${t.sim.preset}${t.sim.scenario ? `, scenario ${t.sim.scenario}` : ''}${t.sim.faults?.length ? `, faults ${t.sim.faults.join(', ')}` : ''}): ${t.runtime}`
    : `${t.runtime} at ${t.criSocket}, NRI at ${t.nriSocket}`;
  const from = { configure: 'from Configure', 'config-file': 'from its config', default: 'the default' }[
    t.requestTimeoutFrom
  ];
  return `${where}, ${t.nri}; request timeout ${formatDuration(t.requestTimeoutMs)} (${from})${holdBoundMs ? `, hooks held at most ${formatDuration(holdBoundMs)}` : ''}; image ${t.image} (${t.imageFrom}).`;
}

function summaryText(r: Pick<ConformanceReport, 'summary' | 'interrupted'>): string {
  const s = r.summary;
  const failed = `${s.failed} failed${s.knownGaps ? ` (${plural(s.knownGaps, 'known gap')})` : ''}`;
  return `${plural(s.total, 'check')} in ${took(s.durationMs)}: ${s.passed} passed, ${failed}, ${s.skipped} skipped, ${plural(s.errors, 'error')}${r.interrupted ? '; interrupted: the checks not run are not listed' : ''}`;
}

function rows(r: ConformanceReport, wide: boolean): string[][] {
  const head = ['RESULT', 'CHECK', ...(wide ? ['CRITEST', '      CRI', '      NRI', '     WAIT'] : []), '     TIME'];
  const body = r.verdicts.map((v) => [
    PAINT[v.status](RESULT[v.status]),
    v.name,
    // Figures right-aligned, of one width: the columns stay put whatever the figures.
    ...(wide
      ? [
          v.critest === undefined ? '-' : String(v.critest),
          took(v.split.criMs).padStart(9),
          took(v.split.nriMs).padStart(9),
          took(v.split.waitMs).padStart(9),
        ]
      : []),
    took(v.durationMs).padStart(9),
  ]);
  return [head.map((h) => chalk.bold(h)), ...body];
}

/** What the node showed beyond CRI's listings: never a clean word for what was not looked at. */
function beyondCriLines(r: ConformanceReport, width: number | undefined): string[] {
  const b = r.beyondCri;
  if (!b.checked) return ['', chalk.yellow(fitProse(`Not checked beyond CRI: ${b.why}.`, width))];
  const limits = b.limits.map((l) => fitProse(`Beyond CRI, ${l}.`, width));
  if (r.leftovers.length > 0 || r.leftoversUnchecked) return limits.length > 0 ? ['', ...limits] : [];
  return [
    '',
    fitProse(
      "Nothing left: no pod or container of this run in CRI's listings, and none of their ids on the node (no shim, process or cgroup).",
      width,
    ),
    ...limits,
  ];
}

export const conformanceView: View<ConformanceReport> = {
  text(r, { width, wide }) {
    const lines = [fitProse(targetText(r.target), width), ''];
    const table = alignColumns(rows(r, wide));
    lines.push(table[0]);
    r.verdicts.forEach((v, i) => {
      lines.push(table[i + 1]);
      const under = [...(v.status === 'pass' ? [] : [reasonOf(v)]), ...(wide ? v.notes : [])];
      for (const text of under) lines.push(fitProse(`        ${text}`, width, undefined, 8));
    });
    if (r.leftovers.length > 0) {
      lines.push('', chalk.red(`Left on the node (${r.leftovers.length}): remove with`));
      for (const l of r.leftovers)
        lines.push(`  ${l.command}    # ${l.kind === 'node' ? `in no CRI listing: ${l.name}` : `${l.kind} ${l.name}`}`);
    }
    if (r.leftoversUnchecked) {
      const u = r.leftoversUnchecked;
      lines.push(
        '',
        chalk.red(
          fitProse(`Not checked for leftovers: ${u.reason}; pods of this run may remain: list them with`, width),
        ),
      );
      lines.push(`  ${u.command}`);
    }
    lines.push(...beyondCriLines(r, width));
    lines.push('', summaryText(r));
    return lines.join('\n');
  },
  data: (r) => r,
};
