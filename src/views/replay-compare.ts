// `nrictl sim --replay FILE --compare`: per container, each field that now ends
// differently from the recording, with the plugin that set it then and the one now; for
// programs the whole comparison; for CI systems (--junit FILE) JUnit XML, one failing case
// per container that differs.
import type { CompareResult, Difference, FieldEnd } from '../replay/index.js';
import { alignRow, chalk, columnWidths, type View } from '../output/index.js';
import { junitReport } from './expectations.js';

function end(f: FieldEnd): string {
  if (f.value === undefined && f.by === undefined) return 'no plugin set it';
  return `${f.value ?? '(removed)'}${f.by !== undefined ? ` (${f.by})` : ''}`;
}

const what = (d: Difference): string => (d.field === 'outcome' ? 'outcome' : `${d.field} ${d.key}`);

function text(r: CompareResult): string {
  const lines: string[] = [];
  const diffs = r.containers.reduce((n, c) => n + c.differences.length, 0);
  for (const c of r.containers) {
    lines.push(chalk.bold(`${c.pod} ${c.name} (${c.id.slice(0, 12)})`));
    const rows = [
      ['  event', 'field', 'then', 'now'],
      ...c.differences.map((d) => [`  ${d.event} #${d.seq}`, what(d), end(d.then), end(d.now)]),
    ];
    const widths = columnWidths(rows);
    lines.push(...rows.map((row, i) => (i === 0 ? chalk.dim(alignRow(row, widths)) : alignRow(row, widths))));
  }
  const verdict =
    diffs === 0 && r.uncompared.then > 0
      ? chalk.red(
          `${r.uncompared.then} traced event(s) of ${r.file} could not be compared; ${r.compared} compared without differences`,
        )
      : diffs === 0
        ? `no differences: ${r.compared} traced event(s) of ${r.file} end as they did`
        : chalk.red(
            `${diffs} difference(s) in ${r.containers.length} container(s); ${r.compared} traced event(s) of ${r.file} compared`,
          );
  lines.push(verdict, ...r.notes.map((n) => chalk.dim(`note: ${n}`)));
  return lines.join('\n');
}

export const compareView: View<CompareResult> = { text, data: (r) => r };

/** JUnit XML: a failing case per container that differs, and one passing case for every other traced event. */
export function compareJunit(r: CompareResult): string {
  const differing = r.containers.map((c) => ({
    name: `${c.pod} ${c.name} (${c.id})`,
    ok: false,
    diffs: c.differences.map((d) => `${d.event} #${d.seq} ${what(d)}: then ${end(d.then)}, now ${end(d.now)}`),
  }));
  const events = r.containers.reduce((n, c) => n + new Set(c.differences.map((d) => d.seq)).size, 0);
  const others = { name: `the other ${r.compared - events} traced event(s) end as they did`, ok: true, diffs: [] };
  const unseen =
    r.uncompared.then > 0
      ? [{ name: `${r.uncompared.then} traced event(s) not seen in the replay`, ok: false, diffs: ['not compared'] }]
      : [];
  return `${junitReport([...differing, ...unseen, others], `nrictl sim --replay ${r.file} --compare`)}\n`;
}
