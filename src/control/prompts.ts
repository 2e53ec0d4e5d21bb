// The interactive parts: picking a container and confirming. Only used on a terminal
// (the command line decides that there is one). The stop signal ends either prompt.
import { confirm, select } from '@inquirer/prompts';
import type { nri } from '../api/index.js';
import { shortId } from '../api/short-id.js';
import { alignColumns, containerStateName, outputColumns, summariseResources } from '../output/index.js';
import { listContainers, type ResolvedContainer } from './resolve.js';

const GAP = '  ';
/** A name is shortened to no less than this before columns are left out. */
const NAME_MIN = 24;
/** A long cpuset is cut to this: the column is a hint, the preview shows it whole. */
const CPUS_MAX = 16;
/** What the picker puts before each row: its cursor and a space. */
const CURSOR_WIDTH = 2;

/** "kube-system/core…8zj4k/coredns": the start and the end, which name the namespace and the container. */
function shortenMiddle(text: string, width: number): string {
  if (text.length <= width) return text;
  if (width <= 1) return text.slice(0, width);
  const head = Math.ceil((width - 1) / 2);
  return `${text.slice(0, head)}…${text.slice(text.length - (width - 1 - head))}`;
}

function shortenEnd(text: string, width: number): string {
  return text.length <= width ? text : `${text.slice(0, Math.max(0, width - 1))}…`;
}

/**
 * One line per container, its columns aligned across the list: name, short id, state,
 * cpus, memory; each line at most `width` columns. When they would be wider, names are
 * shortened in the middle, down to NAME_MIN, and then memory, cpus and state are left out.
 */
export function choiceLines(all: readonly ResolvedContainer[], width = Infinity): string[] {
  const rows = all.map((r) => {
    const s = summariseResources(r.container.linux?.resources);
    return [
      r.name,
      shortId(r.container.id),
      containerStateName(r.container.state),
      s.cpus ? shortenEnd(`cpus ${s.cpus}`, CPUS_MAX) : '',
      s.memoryLimit ? `mem ${s.memoryLimit}` : '',
    ];
  });
  // Columns empty on every row take no room.
  const used = [0, 1, 2, 3, 4].filter((c) => c < 2 || rows.some((r) => r[c] !== ''));
  for (let keep = used.length; keep >= 2; keep--) {
    const columns = used.slice(0, keep);
    const cut = rows.map((r) => columns.map((c) => r[c]));
    const rest = columns.slice(1).reduce((sum, _, i) => sum + GAP.length + widest(cut, i + 1), 0);
    const room = width - rest;
    if (room >= NAME_MIN || keep === 2) {
      const lines = alignColumns(
        cut.map(([name, ...others]) => [shortenMiddle(name, Math.max(room, NAME_MIN)), ...others]),
        GAP,
      );
      return lines.map((l) => shortenEnd(l, width));
    }
  }
  return [];
}

function widest(rows: readonly string[][], column: number): number {
  return Math.max(0, ...rows.map((r) => r[column].length));
}

/**
 * How wide the picker may draw: the terminal's width, as the prompt library wraps at it
 * (80 when the terminal does not say), or COLUMNS when that is narrower.
 */
function pickerWidth(): number {
  const terminal = (process.stdout.isTTY ? process.stdout.getWindowSize()[0] : 0) || 80;
  return Math.min(terminal, outputColumns() ?? terminal);
}

/** Lets the operator choose one of the runtime's containers; resolves with it. */
export async function pickContainer(
  pods: readonly nri.IPodSandbox[],
  containers: readonly nri.IContainer[],
  message: string,
  signal?: AbortSignal,
): Promise<ResolvedContainer> {
  const all = listContainers(pods, containers);
  const lines = choiceLines(all, pickerWidth() - CURSOR_WIDTH);
  const id = await select(
    {
      message,
      choices: all.map((r, i) => ({ name: lines[i], value: r.container.id ?? '', short: r.name })),
      pageSize: 15,
    },
    { signal },
  );
  return all.find((r) => r.container.id === id)!;
}

/** Asks a yes/no question, no by default. */
export function confirmSend(message: string, signal?: AbortSignal): Promise<boolean> {
  return confirm({ message, default: false }, { signal });
}
