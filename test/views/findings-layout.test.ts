import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import chalk from 'chalk';
import { renderFindings, type FindingRow } from '../../src/views/findings-layout.js';
import { outputColumns } from '../../src/output/width.js';

const level = chalk.level;
beforeEach(() => {
  chalk.level = 0;
});
afterEach(() => {
  chalk.level = level;
});

const FIX_COMMAND = 'chown root:root /tmp/nrictl-node-fixture/opt/nri/plugins/10-logger';
const rows: FindingRow[] = [
  {
    severity: 'error',
    path: 'opt/nri/plugins/10-logger',
    code: 'plugin-not-root-owned',
    message:
      'owned by uid 1001, not root: anyone who can write it runs code as root in every container the runtime starts',
    fix: FIX_COMMAND,
  },
  {
    severity: 'warning',
    path: 'etc/containerd/config.toml',
    code: 'nri-default',
    message: '[plugins."io.containerd.nri.v1.nri"] does not set "disable": NRI is off in containerd 1.7 and on in 2.x',
    fix: 'set disable = false explicitly',
  },
  {
    severity: 'info',
    path: 'etc/nri/conf.d/10-logger.conf',
    code: 'config-used',
    message: 'passed to 10-logger',
    fix: 'nothing to do',
  },
];

/**
 * The fix as shown: whole on a table row or its "fix:" line, or, in the list, that line
 * and the lines under it that go on with it (indented to its text).
 */
function shownFix(lines: string[], fix: string): string | undefined {
  const table = lines.find((l) => l.startsWith('│') && l.includes(fix));
  if (table) return fix;
  for (let i = 0; i < lines.length; i++) {
    if (!lines[i].startsWith('  fix: ')) continue;
    const parts = [lines[i].slice('  fix: '.length)];
    for (let j = i + 1; j < lines.length && /^ {7}\S/.test(lines[j]); j++) parts.push(lines[j].trim());
    if (parts.join(' ') === fix) return fix;
  }
  return undefined;
}

/** Every path whole on one line, every fix shown whole; no line past the width but one holding a single long word. */
function expectFits(text: string, width: number | undefined): void {
  const lines = text.split('\n');
  for (const r of rows) {
    expect(
      lines.some((l) => l.includes(r.path)),
      r.path,
    ).toBe(true);
    expect(shownFix(lines, r.fix), r.fix).toBe(r.fix);
  }
  if (width === undefined) return;
  for (const line of lines) {
    if (line.length <= width) continue;
    // Only a word that is longer than the width by itself (a path) may run past it: cutting it is worse.
    const oneWord = /^(?:(?:error|warning|info)\s+| {2}(?:fix: )?| {7})\S+$/.test(line);
    expect(oneWord, `line over ${width} columns: ${JSON.stringify(line)}`).toBe(true);
  }
}

describe('findings layout', () => {
  it.each([40, 60, 61, 80, 120])('fits %i columns without cutting a path or a fix', (width) => {
    const text = renderFindings(rows, { width });
    expectFits(text, width);
  });

  it('uses the table where every path and fix fit whole, the list where they do not', () => {
    const wide = renderFindings(rows, { width: 200 });
    expect(wide.split('\n')[0]).toMatch(/^┌─+┬/);
    // The table is no wider than the terminal, and every line of it is as wide as the first.
    const widths = new Set(wide.split('\n').map((l) => l.length));
    expect(widths.size).toBe(1);
    expect([...widths][0]).toBeLessThanOrEqual(200);
    expectFits(wide, 200);
    const narrow = renderFindings(rows, { width: 80 });
    expect(narrow).not.toContain('┌');
    expect(narrow.split('\n')[0]).toBe('error    opt/nri/plugins/10-logger');
    expect(narrow).toContain(`\n  fix: ${FIX_COMMAND}\n`);
  });

  it('wraps a fix longer than the width at spaces, its lines under its text, never mid-word', () => {
    const text = renderFindings(rows, { width: 40 });
    expect(text).toContain(
      ['  fix: chown root:root', '       /tmp/nrictl-node-fixture/opt/nri/plugins/10-logger'].join('\n'),
    );
    expect(renderFindings(rows, { width: 30 })).toContain(
      ['  fix: set disable = false', '       explicitly'].join('\n'),
    );
  });

  it('the narrowest table that fits: each column as wide as its longest path or fix', () => {
    const table = renderFindings(rows, { width: 200 });
    const natural = table.split('\n')[0].length;
    // A few columns fewer still fit (the message wraps); far fewer switch to the list.
    expect(renderFindings(rows, { width: natural - 10 })).toMatch(/^┌/);
    expect(renderFindings(rows, { width: natural - 10 }).split('\n')[0].length).toBe(natural - 10);
    expect(renderFindings(rows, { width: 100 })).not.toMatch(/^┌/);
  });

  it('keeps the table aligned with colours on (escape codes take no room)', () => {
    chalk.level = 1;
    const text = renderFindings(rows, { width: 200 });
    expect(text).toContain('\x1b[');
    const plain = text.split('\n').map((l) => l.replace(/\x1b\[[0-9;]*m/g, ''));
    expect(new Set(plain.map((l) => l.length)).size).toBe(1);
    expect(plain.join('\n')).toBe(((chalk.level = 0), renderFindings(rows, { width: 200 })));
  });

  it('wraps nothing without a width (a pipe): every message whole on one line', () => {
    const text = renderFindings(rows, {});
    for (const r of rows) expect(text).toContain(`  ${r.message} [${r.code}]\n`);
    expectFits(text, undefined);
  });

  it('puts a multi-line parser message on one line and escapes control characters in paths', () => {
    const text = renderFindings(
      [
        {
          severity: 'error',
          path: 'conf.d/evil\nerror    forged',
          code: 'json-syntax',
          message: 'not valid JSON (Unexpected token\n  1 | {\n    ^): iSulad does not start',
          fix: 'fix the JSON syntax',
        },
      ],
      {},
    );
    expect(text.split('\n')).toEqual([
      'error  conf.d/evil\\nerror    forged',
      '  not valid JSON (Unexpected token 1 | { ^): iSulad does not start [json-syntax]',
      '  fix: fix the JSON syntax',
    ]);
  });
});

describe('outputColumns', () => {
  it("on a terminal takes COLUMNS first, then the terminal's width; a pipe has no width, whatever COLUMNS says", () => {
    expect(outputColumns({ isTTY: true, columns: 61 }, {})).toBe(61);
    expect(outputColumns({ isTTY: true, columns: 61 }, { COLUMNS: '40' })).toBe(40);
    expect(outputColumns({ isTTY: false }, { COLUMNS: '80' })).toBeUndefined();
    expect(outputColumns({ isTTY: false }, {})).toBeUndefined();
    expect(outputColumns({}, { COLUMNS: '' })).toBeUndefined();
    expect(outputColumns({ isTTY: true, columns: 0 }, { COLUMNS: 'wide' })).toBeUndefined();
  });
});
