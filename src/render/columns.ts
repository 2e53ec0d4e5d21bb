import { stripVTControlCharacters } from 'node:util';

/** The length of a cell as a terminal shows it: colour codes take no room. */
export function visibleLength(cell: string): number {
  return cell.includes('\x1b') ? stripVTControlCharacters(cell).length : cell.length;
}

/**
 * Pads single-line cells (colours allowed) so that each column starts at the same
 * place on every line; `gap` goes between columns, trailing spaces are trimmed.
 * Counts characters, which is right for the ASCII of names, IDs and resource values.
 */
export function alignColumns(rows: readonly string[][], gap = '   '): string[] {
  let columns = 0;
  for (const row of rows) columns = Math.max(columns, row.length);
  const widths = new Array<number>(columns).fill(0);
  for (const row of rows) {
    for (let i = 0; i < row.length; i++) widths[i] = Math.max(widths[i], visibleLength(row[i]));
  }
  const out: string[] = [];
  for (const row of rows) {
    let line = '';
    for (let i = 0; i < columns; i++) {
      const cell = row[i] ?? '';
      line += i === 0 ? '' : gap;
      line += cell + ' '.repeat(widths[i] - visibleLength(cell));
    }
    out.push(line.trimEnd());
  }
  return out;
}
