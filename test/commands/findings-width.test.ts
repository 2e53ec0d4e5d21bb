// validate, lint and doctor print findings that fit the terminal: a table when every
// path and fix fits whole, else one block per finding, every line broken at spaces only;
// into a pipe nothing is wrapped, whatever COLUMNS says. Run as users run them: the built
// CLI in a child process, on a real pseudo-terminal (util-linux `script`) whose width
// comes from COLUMNS or from the terminal itself, and into a pipe.
import { spawnSync } from 'node:child_process';
import { chmodSync, mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, it, type ExpectStatic } from 'vitest';
import { runProgram } from './cli-child.js';
import { runInProcess } from '../support/cli-in-process.js';
import { BIN, cliEnv, nrictlOnTerminal, tempDir } from './nri-cli.js';

interface Finding {
  path: string;
  code: string;
  message: string;
  fix: string;
}

let t: ReturnType<typeof tempDir>;
let plugins: string;
let confDir: string;
let root: string;

beforeAll(() => {
  // A deep directory, so that paths and fixes are longer than a narrow terminal.
  t = tempDir('nrictl-width-');
  const base = path.join(t.dir, 'var', 'lib', 'node-images', 'worker-pool-a');
  plugins = path.join(base, 'plugins');
  confDir = path.join(base, 'conf.d');
  mkdirSync(plugins, { recursive: true });
  mkdirSync(confDir, { recursive: true });
  for (const [name, mode] of [
    ['10-logger', 0o755],
    ['20-resources', 0o644],
    ['topology', 0o755],
  ] as const) {
    writeFileSync(path.join(plugins, name), '#!/bin/sh\nexit 0\n');
    chmodSync(path.join(plugins, name), mode);
  }
  writeFileSync(path.join(confDir, '10-logger.conf'), 'logLevel: info\n');
  writeFileSync(path.join(confDir, '20-resources.conf'), 'reservedCpus: [0-1\n');
  writeFileSync(path.join(confDir, '30-balloons-with-a-rather-long-name.conf'), 'balloonTypes: []\n');
  root = path.join(base, 'node');
  mkdirSync(path.join(root, 'etc/containerd'), { recursive: true });
  mkdirSync(path.join(root, 'opt/nri/plugins'), { recursive: true });
  writeFileSync(
    path.join(root, 'etc/containerd/config.toml'),
    'version = 2\n[plugins."io.containerd.nri.v1.nri"]\n  plugin_path = "/opt/nri/plugins"\n',
  );
  writeFileSync(path.join(root, 'opt/nri/plugins/10-logger'), '#!/bin/sh\nexit 0\n');
  chmodSync(path.join(root, 'opt/nri/plugins/10-logger'), 0o644);
});
afterAll(() => t.cleanup());

const COMMANDS = {
  validate: () => ['validate', plugins, '--conf-dir', confDir],
  lint: () => ['lint', confDir, '--plugin-dir', plugins],
  doctor: () => ['doctor', '--root', root],
};

/** The run's environment: no colour, and COLUMNS only when the test sets it. */
function env(columns?: number): NodeJS.ProcessEnv {
  const e = cliEnv({ CI: 'true' });
  delete e.COLUMNS;
  delete e.LINES;
  if (columns !== undefined) e.COLUMNS = String(columns);
  return e;
}

/** Into a pipe (run in process: no terminal), COLUMNS set or not. */
async function run(expect: ExpectStatic, args: string[], columns?: number): Promise<string> {
  const r = await runInProcess(args, { env: env(columns) });
  expect(r.stderr).toBe('');
  return r.stdout;
}

// The findings of a command on these fixtures are the same every time: read once per
// command, not once per width.
const findings = new Map<string, Promise<Finding[]>>();
function findingsOf(expect: ExpectStatic, args: string[]): Promise<Finding[]> {
  const key = JSON.stringify(args);
  if (!findings.has(key)) {
    findings.set(
      key,
      run(expect, [...args, '-o', 'json']).then((out) => (JSON.parse(out) as { findings: Finding[] }).findings),
    );
  }
  return findings.get(key)!.then((all) => {
    expect(all.length).toBeGreaterThan(1);
    return all;
  });
}

const hasScript = spawnSync('script', ['--version'], { encoding: 'utf8' }).status === 0;

/**
 * On a pseudo-terminal: `{ columns }` COLUMNS set (the terminal's own size unknown),
 * `{ terminal }` COLUMNS unset and the terminal that wide.
 */
async function onTerminal(args: string[], width: { columns: number } | { terminal: number }): Promise<string> {
  const r = await nrictlOnTerminal(
    args,
    [],
    'columns' in width
      ? { env: { COLUMNS: String(width.columns) } }
      : { env: { COLUMNS: undefined, LINES: undefined }, columns: width.terminal },
  );
  return r.screen.replace(/\r\n/g, '\n');
}

/** A fix as shown: whole on a table row, or its "fix:" line and the lines indented under its text. */
function shownFixes(lines: string[]): string[] {
  const fixes: string[] = [];
  for (let i = 0; i < lines.length; i++) {
    const row = /^│.*│ (\S.*?) +│$/.exec(lines[i]);
    if (row && !lines[i].includes('│ fix ')) fixes.push(row[1]);
    if (!lines[i].startsWith('  fix: ')) continue;
    const parts = [lines[i].slice('  fix: '.length)];
    for (let j = i + 1; j < lines.length && /^ {7}\S/.test(lines[j]); j++) parts.push(lines[j].trim());
    fixes.push(parts.join(' '));
  }
  return fixes;
}

/**
 * What the user must be able to rely on: every fix shown whole (on a line of its own, or
 * broken at its spaces under its text), every path whole on one line (shown relative to
 * the directory checked), and with a width no line past it but one that holds a single
 * word longer than the width (a path): such a word is kept whole rather than cut.
 */
function expectFits(expect: ExpectStatic, text: string, findings: Finding[], width: number | undefined): void {
  const lines = text.split('\n');
  const fixes = shownFixes(lines);
  for (const f of findings) {
    expect(fixes, `fix shown whole: ${f.fix}\n${text}`).toContain(f.fix);
    expect(
      lines.some((l) => l.includes(path.basename(f.path))),
      `path on a line: ${f.path}`,
    ).toBe(true);
  }
  expect(text).not.toContain('…');
  if (width === undefined) return;
  // Every line, findings, headings, summary and verdict alike.
  expect(lines.filter((l) => /^(│|error |warning |info )/.test(l)).length).toBeGreaterThanOrEqual(findings.length);
  for (const line of lines) {
    if (line.length <= width) continue;
    const oneWord = /^(?:(?:error|warning|info)\s+| {2}(?:fix: )?| {7})?\S+$/.test(line);
    expect(oneWord, `line over ${width} columns that is not one long word: ${JSON.stringify(line)}`).toBe(true);
  }
}

describe.concurrent.each(Object.keys(COMMANDS) as Array<keyof typeof COMMANDS>)('nrictl %s findings', (name) => {
  const args = () => COMMANDS[name]();

  // Every width is the layout's (test/views/findings-layout.test.ts, in process); here each
  // command on a real terminal at a narrow and a wide one, and one width the terminal gives.
  it.skipIf(!hasScript).for([40, 120])('fit a terminal with COLUMNS=%i', async (width, { expect }) => {
    const [findings, text] = await Promise.all([findingsOf(expect, args()), onTerminal(args(), { columns: width })]);
    expect(text).toMatch(/\d+ errors?, \d+ warnings?/);
    expectFits(expect, text, findings, width);
  });

  it.skipIf(!hasScript).for([61])('fit a terminal %i columns wide (COLUMNS unset)', async (width, { expect }) => {
    const [findings, text] = await Promise.all([findingsOf(expect, args()), onTerminal(args(), { terminal: width })]);
    expect(text).toMatch(/\d+ errors?, \d+ warnings?/);
    expectFits(expect, text, findings, width);
  });

  it('in a pipe: nothing wrapped, nothing cut, each message and fix whole on its line, whatever COLUMNS says', async ({
    expect,
  }) => {
    const [findings, text, at40] = await Promise.all([
      findingsOf(expect, args()),
      run(expect, args()),
      run(expect, args(), 40),
    ]);
    expectFits(expect, text, findings, undefined);
    for (const f of findings) {
      expect(text, f.code).toContain(`${f.message.replace(/\s*\n\s*/g, ' ')} [${f.code}]\n`);
      expect(text, f.code).toContain(`  fix: ${f.fix}\n`);
    }
    expect(at40).toBe(text);
  });
});

describe.concurrent('COLUMNS=40 nrictl validate examples/plugins | cat', () => {
  it('is not wrapped: the same text as without COLUMNS, its long lines whole', async ({ expect }) => {
    const repo = path.join(import.meta.dirname, '..', '..');
    const [r, unset] = await Promise.all([
      runProgram('sh', ['-c', `COLUMNS=40 "${process.execPath}" "${BIN}" validate examples/plugins | cat`], {
        cwd: repo,
        env: env(),
      }),
      runInProcess(['validate', 'examples/plugins'], { cwd: repo, env: env() }),
    ]);
    const lines = r.stdout.split('\n');
    expect(lines.filter((l) => l.length > 40).length).toBeGreaterThan(2);
    expect(r.stdout).toContain(
      '\nInvocation order, containerd / CRI-O (by index): none: plugin discovery fails, so no pre-installed plugin starts.\n',
    );
    expect(r.stdout).toContain(
      "\n  fix: rename it to NN-name (two digits, '-', a name) or remove its execute bits (chmod a-x)\n",
    );
    expect(r.stdout).toBe(unset.stdout);
  });
});

describe.concurrent('a parser message that spans lines', () => {
  it.skipIf(!hasScript)(
    'stays on one line of the finding (lint of a daemon.json whose error quotes the broken text)',
    async ({ expect }) => {
      const file = path.join(t.dir, 'daemon.json');
      // V8 quotes the text around a JSON syntax error, newlines included.
      writeFileSync(file, '{\n  "nri-support": tru\n}\n');
      const finding = (
        JSON.parse(await run(expect, ['lint', file, '-o', 'json'])) as { findings: Finding[] }
      ).findings.find((f) => f.code === 'json-syntax');
      // checks now folds V8's excerpt into one line itself; the layout folds any other
      // multi-line message too (see test/views/findings-layout.test.ts). Either way:
      expect(finding?.message).toBeDefined();
      for (const columns of [undefined, 80, 200]) {
        const text =
          columns === undefined ? await run(expect, ['lint', file]) : await onTerminal(['lint', file], { columns });
        const lines = text.split('\n');
        const at = lines.findIndex((l) => l.includes('not valid JSON'));
        expect(at, `finding shown at COLUMNS=${columns}`).toBeGreaterThan(0);
        // The rows from the message's start to its [code] are the message's own: no line of the
        // broken file's text is left on a line by itself, outside the finding's columns.
        const end = lines.findIndex((l, i) => i >= at && l.includes('[json-syntax]'));
        for (const line of lines.slice(at, end + 1)) expect(line, `COLUMNS=${columns}`).toMatch(/^(│| {2}\S)/);
        if (columns === undefined) {
          expect(end).toBe(at);
          expect(lines[at]).toBe(`  ${finding!.message.replace(/\s*\n\s*/g, ' ').trim()} [json-syntax]`);
        }
      }
    },
  );
});
