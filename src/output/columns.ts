import { stripVTControlCharacters } from 'node:util';

/** The length of a cell as a terminal shows it: colour codes take no room. */
export function visibleLength(cell: string): number {
  return cell.includes('\x1b') ? stripVTControlCharacters(cell).length : cell.length;
}

/** The width of each column: its widest cell, as a terminal shows it. */
export function columnWidths(rows: readonly (readonly string[])[]): number[] {
  let columns = 0;
  for (const row of rows) columns = Math.max(columns, row.length);
  const widths = new Array<number>(columns).fill(0);
  for (const row of rows) {
    for (let i = 0; i < row.length; i++) widths[i] = Math.max(widths[i], visibleLength(row[i]));
  }
  return widths;
}

/** One row padded to the widths, `gap` between columns, trailing spaces trimmed. */
export function alignRow(row: readonly string[], widths: readonly number[], gap = '   '): string {
  let line = '';
  for (let i = 0; i < widths.length; i++) {
    const cell = row[i] ?? '';
    line += i === 0 ? '' : gap;
    line += cell + ' '.repeat(widths[i] - visibleLength(cell));
  }
  return line.trimEnd();
}

/** How wide alignRow's line for this row is on a terminal, without making it. */
export function alignedWidth(row: readonly string[], widths: readonly number[], gap = '   '): number {
  let offset = 0;
  let end = 0;
  for (let i = 0; i < widths.length; i++) {
    if (i > 0) offset += gap.length;
    const cell = row[i] ?? '';
    const shown = (cell.includes('\x1b') ? stripVTControlCharacters(cell) : cell).trimEnd().length;
    if (shown > 0) end = offset + shown;
    offset += widths[i];
  }
  return end;
}

/**
 * Pads single-line cells (colours allowed) so that each column starts at the same
 * place on every line; `gap` goes between columns, trailing spaces are trimmed.
 * Counts characters, which is right for the ASCII of names, IDs and resource values.
 */
export function alignColumns(rows: readonly string[][], gap = '   '): string[] {
  const widths = columnWidths(rows);
  return rows.map((row) => alignRow(row, widths, gap));
}
