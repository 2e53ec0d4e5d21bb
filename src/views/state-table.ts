import { createRequire } from 'node:module';
import { stripVTControlCharacters } from 'node:util';
import {
  alignColumns,
  alignedWidth,
  alignRow,
  chalk,
  columnWidths,
  type Container,
  containerResources,
  containerStateName,
  type ContainerStateName,
  type Pod,
  podDisplayName,
  summariseResources,
  visibleLength,
} from '../output/index.js';
import { shortId } from '../api/short-id.js';

export interface StateTableOptions {
  /** Add the resource columns (-o wide). */
  wide?: boolean;
  /**
   * The terminal's columns (see outputColumns): a table wider than this becomes a list
   * grouped by pod. Undefined (a pipe, a file): always the table, however wide.
   */
  width?: number | undefined;
}

const HEAD = ['POD', 'POD ID', 'CONTAINER', 'CONTAINER ID', 'STATE'];
const WIDE_HEAD = ['CPUSET', 'MEMS', 'MEMORY LIMIT', 'CPU QUOTA/PERIOD', 'SHARES'];
const NONE = '-';

const STATE_COLOUR: Record<ContainerStateName, (s: string) => string> = {
  Running: (s) => chalk.green(s),
  Created: (s) => chalk.yellow(s),
  Paused: (s) => chalk.yellow(s),
  Stopped: (s) => chalk.dim(s),
  Unknown: (s) => chalk.red(s),
};

/**
 * The rows of `nrictl sync dump`: one per container, under its pod; a pod without
 * containers gets one row of its own; containers whose pod the runtime did not
 * report come last under "<unknown pod>". Pods sort by namespace/name, containers
 * by name, so two dumps of the same state compare line by line.
 */
export function stateTableRows(
  pods: readonly Pod[],
  containers: readonly Container[],
  opts: StateTableOptions = {},
): string[][] {
  const byPod = new Map<string, Container[]>();
  for (const c of containers) {
    const key = c.podSandboxId ?? '';
    let list = byPod.get(key);
    if (!list) byPod.set(key, (list = []));
    list.push(c);
  }
  const rows: string[][] = [];
  const sortedPods = [...pods].sort(
    (a, b) => compare(podDisplayName(a), podDisplayName(b)) || compare(a.id ?? '', b.id ?? ''),
  );
  const emit = (podName: string, podId: string, ctrs: Container[] | undefined): void => {
    if (!ctrs || ctrs.length === 0) {
      const row = [podName, shortId(podId), NONE, NONE, NONE];
      if (opts.wide) row.push(NONE, NONE, NONE, NONE, NONE);
      rows.push(row);
      return;
    }
    ctrs.sort((a, b) => compare(a.name ?? '', b.name ?? '') || compare(a.id ?? '', b.id ?? ''));
    for (const c of ctrs) rows.push(containerRow(podName, podId, c, opts));
  };
  for (const pod of sortedPods) {
    const id = pod.id ?? '';
    emit(podDisplayName(pod), id, byPod.get(id));
    byPod.delete(id);
  }
  const orphans = [...byPod.entries()].sort(([a], [b]) => compare(a, b));
  for (const [podId, ctrs] of orphans) emit('<unknown pod>', podId, ctrs);
  return rows;
}

function containerRow(podName: string, podId: string, c: Container, opts: StateTableOptions): string[] {
  const state = containerStateName(c.state);
  const row = [podName, shortId(podId), c.name ?? '', shortId(c.id), STATE_COLOUR[state](state)];
  if (!opts.wide) return row;
  const r = summariseResources(containerResources(c));
  const quotaPeriod = r.quota === undefined && r.period === undefined ? NONE : `${r.quota ?? NONE}/${r.period ?? NONE}`;
  row.push(r.cpus ?? NONE, r.mems ?? NONE, r.memoryLimit ?? NONE, quotaPeriod, r.shares ?? NONE);
  return row;
}

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

export function stateTableHead(opts: StateTableOptions = {}): string[] {
  return opts.wide ? [...HEAD, ...WIDE_HEAD] : [...HEAD];
}

// crictl's look: no borders, columns three spaces apart, a bold header.
const GAP = '   ';
const COMPACT_CHARS = {
  top: '',
  'top-mid': '',
  'top-left': '',
  'top-right': '',
  bottom: '',
  'bottom-mid': '',
  'bottom-left': '',
  'bottom-right': '',
  left: '',
  'left-mid': '',
  mid: '',
  'mid-mid': '',
  right: '',
  'right-mid': '',
  middle: GAP,
};

/**
 * Renders rows in the compact style, trailing spaces trimmed. cli-table3 takes
 * seconds for thousands of rows (its span-conflict check is quadratic and every
 * cell is re-measured through fresh regular expressions), so single-line cells of
 * printable ASCII, which is all that Kubernetes names, IDs and resource values
 * can hold, are laid out here with the same result; anything else (wide
 * characters, line breaks) goes through cli-table3 itself.
 */
export function renderCompactTable(head: string[], rows: string[][]): string {
  const header = head.map((h) => chalk.bold(h));
  const widths = plainWidths(header, rows);
  return widths ? [...alignedLines(header, rows, widths)].join('') : cliTable3(header, rows);
}

/** The columns' widths when every cell is single-line printable ASCII (colours allowed), else undefined: cli-table3's case. */
function plainWidths(header: readonly string[], rows: readonly string[][]): number[] | undefined {
  return isPlainRow(header) && rows.every(isPlainRow) ? columnWidths([header, ...rows]) : undefined;
}

/** Rows per piece of alignedLines. */
const ROWS_PER_CHUNK = 256;

/** The header and rows padded to `widths`, a line each, in pieces of a few hundred lines. */
function* alignedLines(
  header: readonly string[],
  rows: readonly string[][],
  widths: readonly number[],
): Generator<string> {
  yield `${alignRow(header, widths, GAP)}\n`;
  for (let i = 0; i < rows.length; i += ROWS_PER_CHUNK) {
    let text = '';
    for (const row of rows.slice(i, i + ROWS_PER_CHUNK)) text += `${alignRow(row, widths, GAP)}\n`;
    yield text;
  }
}

const PLAIN = /^[ -~]*$/;

function isPlainRow(row: readonly string[]): boolean {
  for (const cell of row) if (!isPlainCell(cell)) return false;
  return true;
}

// A loop over the characters: a regular expression per cell was a tenth of a large dump's time.
function isPlainCell(cell: string): boolean {
  for (let i = 0; i < cell.length; i++) {
    const c = cell.charCodeAt(i);
    if (c < 0x20 || c > 0x7e) return c === 0x1b && PLAIN.test(stripVTControlCharacters(cell));
  }
  return true;
}

type TableClass = typeof import('cli-table3');
let Table: TableClass | undefined;

function cliTable3(head: string[], rows: string[][]): string {
  // Loaded (its CommonJS build) for the first table the fast path cannot lay out: most
  // runs never need it, and every command importing the views paid for it.
  Table ??= createRequire(import.meta.url)('cli-table3') as TableClass;
  const table = new Table({
    head,
    chars: COMPACT_CHARS,
    style: { head: [], border: [], 'padding-left': 0, 'padding-right': 0, compact: true },
  });
  table.push(...rows);
  return `${table
    .toString()
    .split('\n')
    .map((l) => l.trimEnd())
    .join('\n')}\n`;
}

/** Only for tests: the cli-table3 rendering, to hold the fast path to the same look. */
export const renderWithCliTable3 = cliTable3;

/** The pods and containers table of `nrictl sync dump` (table and wide). */
export function renderStateTable(
  pods: readonly Pod[],
  containers: readonly Container[],
  opts: StateTableOptions = {},
): string {
  return [...stateTableChunks(pods, containers, opts)].join('');
}

/**
 * renderStateTable's text in pieces of a few hundred lines, for a writer that hands each
 * on as it comes. The column widths come from every row (the rows are short strings, a
 * small part of the state they summarise), so the table looks as it does whole.
 */
export function* stateTableChunks(
  pods: readonly Pod[],
  containers: readonly Container[],
  opts: StateTableOptions = {},
): Generator<string> {
  const rows = stateTableRows(pods, containers, opts);
  const head = stateTableHead(opts).map((h) => chalk.bold(h));
  const widths = plainWidths(head, rows);
  if (!widths) {
    const table = cliTable3(head, rows);
    yield opts.width === undefined || widestLine(table) <= opts.width ? table : stateList(rows, opts);
    return;
  }
  if (opts.width !== undefined && [head, ...rows].some((r) => alignedWidth(r, widths, GAP) > opts.width!)) {
    yield stateList(rows, opts);
    return;
  }
  yield* alignedLines(head, rows, widths);
}

function widestLine(text: string): number {
  let widest = 0;
  for (const line of text.split('\n')) widest = Math.max(widest, visibleLength(line));
  return widest;
}

const WIDE_LABELS = ['cpus', 'mems', 'memory', 'quota/period', 'shares'];

/**
 * The same rows for a terminal too narrow for the table: each pod on a line of its
 * own, its containers indented under it (name, id, state aligned down the list) and,
 * for wide, their resources on the next line. Nothing is cut; a pod name longer than
 * the terminal simply wraps.
 *
 *   shop/redis-0  9a4e7b1f3c28
 *     redis           c2c3d4e5f6a7  Running
 *       cpus 2-3  memory 1Gi  quota/period 200000/100000  shares 1024
 */
function stateList(rows: readonly string[][], opts: StateTableOptions): string {
  const containerLines = alignColumns(
    rows.map((r) => (r[2] === NONE ? [] : [`  ${r[2]}`, r[3], r[4]])),
    '  ',
  );
  const out: string[] = [];
  let pod = '';
  rows.forEach((r, i) => {
    const key = `${r[0]}\0${r[1]}`;
    if (key !== pod) {
      pod = key;
      out.push(`${chalk.bold(r[0])}  ${chalk.dim(r[1])}`);
    }
    if (r[2] === NONE) {
      out.push(chalk.dim('  (no containers)'));
      return;
    }
    out.push(containerLines[i]);
    if (opts.wide) {
      const set = WIDE_LABELS.map((label, k) => [label, r[5 + k]] as const).filter(
        ([, v]) => v !== undefined && v !== NONE,
      );
      if (set.length) out.push(`    ${set.map(([label, v]) => `${label} ${v}`).join('  ')}`);
    }
  });
  return `${out.join('\n')}\n`;
}
