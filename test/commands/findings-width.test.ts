// validate, lint and doctor print findings that fit the terminal: a table when every
// path and fix fits whole, else one block per finding; in a pipe, nothing is wrapped.
// Run as users run them: the built CLI in a child process, with COLUMNS, on a real
// pseudo-terminal of a given width (util-linux `script`), and into a pipe.
import { spawn, spawnSync } from 'node:child_process';
import { chmodSync, mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BIN, cliEnv, tempDir } from './nri-cli.js';

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
  lint: () => ['lint', confDir, '--plugin-path', plugins],
  doctor: () => ['doctor', '--root', root],
};

/** Child environment: no colour, and COLUMNS only when the test sets it. */
function env(columns?: number): NodeJS.ProcessEnv {
  const e = cliEnv({ CI: 'true' });
  delete e.COLUMNS;
  delete e.LINES;
  if (columns !== undefined) e.COLUMNS = String(columns);
  return e;
}

function run(args: string[], columns?: number): string {
  const r = spawnSync(process.execPath, [BIN, ...args], { encoding: 'utf8', env: env(columns) });
  expect(r.stderr).toBe('');
  return r.stdout;
}

function findingsOf(args: string[]): Finding[] {
  const doc = JSON.parse(run([...args, '-o', 'json'])) as { findings: Finding[] };
  expect(doc.findings.length).toBeGreaterThan(1);
  return doc.findings;
}

const hasScript = spawnSync('script', ['--version'], { encoding: 'utf8' }).status === 0;

/** The command on a pseudo-terminal `columns` wide, COLUMNS unset: the width comes from the terminal. */
function runOnTerminal(args: string[], columns: number): Promise<string> {
  const quote = (s: string): string => `'${s.replace(/'/g, `'\\''`)}'`;
  const cmd = `stty cols ${columns} rows 50; exec ${[process.execPath, BIN, ...args].map(quote).join(' ')}`;
  const child = spawn('script', ['-qfec', cmd, '/dev/null'], { stdio: ['pipe', 'pipe', 'pipe'], env: env() });
  let out = '';
  child.stdout.setEncoding('utf8').on('data', (d: string) => (out += d));
  child.stdin.end();
  return new Promise((resolve) => child.on('close', () => resolve(out.replace(/\r\n/g, '\n'))));
}

/**
 * What the user must be able to rely on: every fix whole on one line, every path whole
 * on one line (shown relative to the directory checked), and with a width, no other
 * line past it. The long lines allowed are those that hold a path or fix whole.
 */
function expectFits(text: string, findings: Finding[], width: number | undefined): void {
  const lines = text.split('\n');
  for (const f of findings) {
    expect(
      lines.some((l) => l.includes(f.fix)),
      `fix whole on a line: ${f.fix}\n${text}`,
    ).toBe(true);
    expect(
      lines.some((l) => l.includes(path.basename(f.path))),
      `path on a line: ${f.path}`,
    ).toBe(true);
  }
  expect(text).not.toContain('…');
  if (width === undefined) return;
  // The findings' own lines: the table's, or the list's (a severity, then indented lines).
  // Headings and verdicts around them are sentences the terminal may fold like any prose.
  const findingLines = lines.filter((l) => /^(│|┌|├|└|error |warning |info | {2})/.test(l));
  expect(findingLines.length).toBeGreaterThanOrEqual(findings.length * 2);
  for (const line of findingLines) {
    if (line.length <= width) continue;
    // A fix, a severity and its path, or one word of a message longer than the width
    // (a path named in the message) on a line of its own: kept whole rather than cut.
    const carriesWhole =
      findings.some((f) => line.trim() === `fix: ${f.fix}`) ||
      /^(error|warning|info)\s+\S+$/.test(line) ||
      /^ {2}\S+$/.test(line);
    expect(carriesWhole, `line over ${width} columns that is not a path or a fix: ${JSON.stringify(line)}`).toBe(true);
  }
}

describe.each(Object.keys(COMMANDS) as Array<keyof typeof COMMANDS>)('nrictl %s findings', (name) => {
  const args = () => COMMANDS[name]();

  it.each([40, 60, 61, 80, 120])('fit COLUMNS=%i', (width) => {
    const findings = findingsOf(args());
    expectFits(run(args(), width), findings, width);
  });

  it('in a pipe: nothing wrapped, nothing cut, each message whole on its line', () => {
    const findings = findingsOf(args());
    const text = run(args());
    expectFits(text, findings, undefined);
    for (const f of findings) expect(text, f.code).toContain(`${f.message.replace(/\s*\n\s*/g, ' ')} [${f.code}]\n`);
  });

  it.skipIf(!hasScript).each([40, 61, 80])('fit a terminal %i columns wide', async (width) => {
    const findings = findingsOf(args());
    const text = await runOnTerminal(args(), width);
    expect(text).toMatch(/\d+ errors?, \d+ warnings?/);
    expectFits(text, findings, width);
  });
});

describe('a parser message that spans lines', () => {
  it('stays on one line of the finding (lint of a daemon.json whose error quotes the broken text)', () => {
    const file = path.join(t.dir, 'daemon.json');
    // V8 quotes the text around a JSON syntax error, newlines included.
    writeFileSync(file, '{\n  "nri-support": tru\n}\n');
    const finding = (JSON.parse(run(['lint', file, '-o', 'json'])) as { findings: Finding[] }).findings.find(
      (f) => f.code === 'json-syntax',
    );
    // checks now folds V8's excerpt into one line itself; the layout folds any other
    // multi-line message too (see test/render/findings-layout.test.ts). Either way:
    expect(finding?.message).toBeDefined();
    for (const columns of [undefined, 80, 200]) {
      const lines = run(['lint', file], columns).split('\n');
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
  });
});
