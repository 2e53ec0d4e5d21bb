import { chalk, type Severity, severityColour, wrapText, wrapWords } from '../output/index.js';

/** One finding as the layouts show it: the path already shortened as the command wants it. */
export interface FindingRow {
  severity: Extract<Severity, 'error' | 'warning' | 'info'>;
  path: string;
  code: string;
  message: string;
  fix: string;
}

export interface FindingsLayoutOptions {
  /** Columns to fit, or undefined for no limit (a pipe or a file): see outputColumns(). */
  width?: number | undefined;
}

// The message column gets at least this much, or the findings go to the list layout:
// a table whose prose runs four words to a line reads worse than a list.
const MESSAGE_MIN = 24;
// Borders and padding of a four-column boxed table: 5 rules and a space either side of each cell.
const TABLE_CHROME = 5 + 4 * 2;
const HEAD = ['severity', 'path', 'finding', 'fix'] as const;

/**
 * Findings for people: a boxed table (severity, path, finding, fix) when it fits the
 * width with every path and fix whole, else one block per finding. Nothing is ever cut
 * mid-word: a path is one word and stays whole (on a line of its own if it must); the
 * finding's prose and, in the list, the fix wrap at spaces. With no width (a pipe),
 * nothing wraps at all, and the list layout keeps every line whole for grep.
 */
export function renderFindings(rows: readonly FindingRow[], opts: FindingsLayoutOptions = {}): string {
  const clean = rows.map(cleanRow);
  const widths = opts.width === undefined ? undefined : tableWidths(clean, opts.width);
  return widths ? boxedTable(clean, widths) : blocks(clean, opts.width);
}

interface Clean extends FindingRow {
  /** The message words, the code last as "[code]". */
  words: string[];
}

// A message may carry a parser's multi-line excerpt (a JSON or YAML syntax error); one
// line per cell. A path may hold any byte but '/' and NUL: control characters are shown
// escaped, as `ls -b` does, so that a newline in a name cannot forge a row.
function cleanRow(row: FindingRow): Clean {
  const message = oneLine(row.message);
  return {
    ...row,
    path: escapeControl(row.path),
    fix: oneLine(row.fix),
    message,
    words: [...message.split(' ').filter(Boolean), `[${row.code}]`],
  };
}

function oneLine(text: string): string {
  return text
    .replace(/\s*[\r\n]+\s*/g, ' ')
    .replace(/[\t\v\f]/g, ' ')
    .trim();
}

function escapeControl(text: string): string {
  // eslint-disable-next-line no-control-regex
  return text.replace(/[\x00-\x1f\x7f]/g, (c) =>
    c === '\n' ? '\\n' : c === '\t' ? '\\t' : `\\x${c.charCodeAt(0).toString(16).padStart(2, '0')}`,
  );
}

interface Widths {
  severity: number;
  path: number;
  message: number;
  fix: number;
}

/** Column widths that fit `width` with path and fix whole, or undefined when none do. */
function tableWidths(rows: readonly Clean[], width: number): Widths | undefined {
  const max = (values: number[], least: number): number => values.reduce((a, b) => Math.max(a, b), least);
  const severity = max(
    rows.map((r) => r.severity.length),
    HEAD[0].length,
  );
  const path = max(
    rows.map((r) => r.path.length),
    HEAD[1].length,
  );
  const fix = max(
    rows.map((r) => r.fix.length),
    HEAD[3].length,
  );
  const natural = max(
    rows.map((r) => r.words.join(' ').length),
    HEAD[2].length,
  );
  const longestWord = max(
    rows.flatMap((r) => r.words.map((w) => w.length)),
    0,
  );
  const room = width - TABLE_CHROME - severity - path - fix;
  const message = Math.min(natural, room);
  if (message < Math.min(natural, Math.max(MESSAGE_MIN, longestWord))) return undefined;
  return { severity, path, message, fix };
}

/** The message line, its trailing "[code]" dimmed. */
function paintWords(words: readonly string[], code: string): string {
  const tag = `[${code}]`;
  return words.map((w, i) => (i === words.length - 1 && w === tag ? chalk.dim(w) : w)).join(' ');
}

function paintSeverity(severity: FindingRow['severity']): string {
  return severityColour(severity, severity);
}

function boxedTable(rows: readonly Clean[], w: Widths): string {
  const cols = [w.severity, w.path, w.message, w.fix];
  const rule = (left: string, mid: string, right: string): string =>
    `${left}${cols.map((c) => '─'.repeat(c + 2)).join(mid)}${right}`;
  const line = (cells: Array<{ text: string; shown: number }>): string =>
    `│${cells.map((cell, i) => ` ${cell.text}${' '.repeat(cols[i] - cell.shown)} `).join('│')}│`;
  const out = [rule('┌', '┬', '┐'), line(HEAD.map((h) => ({ text: chalk.bold(h), shown: h.length })))];
  for (const row of rows) {
    out.push(rule('├', '┼', '┤'));
    const message = wrapWords(row.words, w.message);
    message.forEach((words, i) => {
      const text = words.join(' ');
      out.push(
        line([
          i === 0 ? { text: paintSeverity(row.severity), shown: row.severity.length } : { text: '', shown: 0 },
          i === 0 ? { text: row.path, shown: row.path.length } : { text: '', shown: 0 },
          { text: i === message.length - 1 ? paintWords(words, row.code) : text, shown: text.length },
          i === 0 ? { text: row.fix, shown: row.fix.length } : { text: '', shown: 0 },
        ]),
      );
    });
  }
  out.push(rule('└', '┴', '┘'));
  return out.join('\n');
}

/**
 *   warning  conf.d/20-resources.conf
 *     not valid YAML or JSON (...); most plugins will reject it [config-not-yaml]
 *     fix: fix the syntax of conf.d/20-resources.conf
 *          (a longer fix goes on under its text)
 */
function blocks(rows: readonly Clean[], width: number | undefined): string {
  const indent = '  ';
  const severityWidth = Math.max(...rows.map((r) => r.severity.length));
  const messageWidth = width === undefined ? undefined : Math.max(width - indent.length, 1);
  return rows
    .map((row) => {
      const head = `${paintSeverity(row.severity)}${' '.repeat(severityWidth - row.severity.length)}  ${row.path}`;
      const message = wrapWords(row.words, messageWidth).map((words) => `${indent}${paintWords(words, row.code)}`);
      // The fix wraps at spaces too, its lines under its text: a terminal would cut it mid-word.
      const lead = `${indent}fix: `;
      const fix = wrapText(row.fix, width, lead, lead.length);
      fix[0] = `${indent}${chalk.dim('fix:')} ${fix[0].slice(lead.length)}`;
      return [head, ...message, ...fix].join('\n');
    })
    .join('\n\n');
}
