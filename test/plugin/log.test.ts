// A plugin's log (src/plugin/log.ts): real files and modes in temp directories, a real
// unix stream socket standing in for the journal, a real plugin process routing console.
import { spawn } from 'node:child_process';
import { fstatSync, readdirSync, writeFileSync } from 'node:fs';
import { mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { chooseLogDestination, openPluginLog, type PluginLogOptions } from '../../src/plugin/index.js';

const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const TSX = path.join(REPO, 'node_modules/tsx/dist/esm/index.mjs');

let dirs: string[] = [];
afterEach(async () => {
  for (const d of dirs) await rm(d, { recursive: true, force: true });
  dirs = [];
});
async function tempDir(): Promise<string> {
  const d = await mkdtemp(path.join(os.tmpdir(), 'plog-'));
  dirs.push(d);
  return d;
}

/** A plugin the runtime started (fd in NRI_PLUGIN_SOCKET), no terminal, no journal unless given. */
function startedByRuntime(dir: string, extra: NodeJS.ProcessEnv = {}): PluginLogOptions & { lines: string[] } {
  const lines: string[] = [];
  return {
    name: 'annotate',
    identifier: '10-annotate',
    env: {
      NRI_PLUGIN_SOCKET: '3',
      NRI_PLUGIN_LOG_DIR: path.join(dir, 'log', 'nri'),
      NRI_PLUGIN_JOURNAL_SOCKET: path.join(dir, 'no-journal'),
      ...extra,
    },
    stderrIsTTY: false,
    writeStderr: (text) => lines.push(text),
    lines,
  };
}

describe('where the log goes', () => {
  it('stays on stderr for an external plugin, a terminal, stderr on the journal, or NRI_PLUGIN_LOG=stderr', async () => {
    const dir = await tempDir();
    const opts = startedByRuntime(dir);
    expect(chooseLogDestination({ ...opts, env: { ...opts.env, NRI_PLUGIN_SOCKET: undefined } })).toEqual({
      kind: 'stderr',
      why: 'not started by a runtime',
    });
    expect(chooseLogDestination({ ...opts, stderrIsTTY: true })).toMatchObject({ kind: 'stderr', why: 'a terminal' });
    const st = fstatSync(2);
    expect(
      chooseLogDestination({ ...opts, env: { ...opts.env, JOURNAL_STREAM: `${st.dev}:${st.ino}` } }),
    ).toMatchObject({ kind: 'stderr', why: 'stderr is connected to the journal' });
    // JOURNAL_STREAM naming another stream (a child whose stderr was redirected) does not count.
    expect(chooseLogDestination({ ...opts, env: { ...opts.env, JOURNAL_STREAM: '1:1' } }).kind).toBe('file');
    expect(chooseLogDestination({ ...opts, env: { ...opts.env, NRI_PLUGIN_LOG: 'stderr' } }).kind).toBe('stderr');
  });

  it('writes a file 0640 in a 0750 directory it creates, one timestamped line per message', async () => {
    const dir = await tempDir();
    const opts = startedByRuntime(dir);
    const file = path.join(dir, 'log', 'nri', 'annotate.log');
    const old = process.umask(0o022);
    try {
      const log = openPluginLog(opts);
      expect(log.destination).toEqual({ kind: 'file', file });
      log.info('hello');
      log.error('it broke');
    } finally {
      process.umask(old);
    }
    expect((await stat(file)).mode & 0o777).toBe(0o640);
    expect((await stat(path.dirname(file))).mode & 0o777).toBe(0o750);
    expect((await readFile(file, 'utf8')).split('\n')).toEqual([
      expect.stringMatching(/^\d{4}-\d\d-\d\dT[\d:.]+Z INFO hello$/),
      expect.stringMatching(/Z ERROR it broke$/),
      '',
    ]);
    expect(opts.lines).toEqual([]);
  });

  it('renames a full file to .log.1 and starts again: never more than two files', async () => {
    const dir = await tempDir();
    const log = openPluginLog({ ...startedByRuntime(dir), maxFileBytes: 300 });
    for (let i = 0; i < 20; i++) log.info(`line ${String(i).padStart(2, '0')} ${'x'.repeat(40)}`);
    const logDir = path.join(dir, 'log', 'nri');
    expect(readdirSync(logDir).sort()).toEqual(['annotate.log', 'annotate.log.1']);
    const current = await readFile(path.join(logDir, 'annotate.log'), 'utf8');
    const previous = await readFile(path.join(logDir, 'annotate.log.1'), 'utf8');
    expect(current.length).toBeLessThanOrEqual(300);
    expect(previous.length).toBeLessThanOrEqual(300);
    expect(current).toContain('line 19');
    expect(previous).not.toContain('line 19');
    expect((await stat(path.join(logDir, 'annotate.log'))).mode & 0o777).toBe(0o640);
  });

  it('falls back to stderr when the directory cannot be made, and says so once', async () => {
    const dir = await tempDir();
    await writeFile(path.join(dir, 'log'), 'a file where the directory should be');
    const opts = startedByRuntime(dir);
    const log = openPluginLog(opts);
    log.info('first');
    log.warn('second');
    expect(log.destination.kind).toBe('stderr');
    expect(opts.lines).toEqual([
      expect.stringMatching(/^10-annotate: cannot write .*annotate\.log \(.*ENOTDIR.*\); logging to stderr\n$/),
      'first\n',
      'second\n',
    ]);
  });

  it("writes to the journal's stream socket: a header naming the plugin, then <priority>line", async () => {
    const dir = await tempDir();
    const socket = path.join(dir, 'journal.sock');
    let received = '';
    const server = net.createServer((c) => c.on('data', (d) => (received += d.toString())));
    await new Promise<void>((resolve) => server.listen(socket, resolve));
    const opts = startedByRuntime(dir, { NRI_PLUGIN_JOURNAL_SOCKET: socket });
    const log = openPluginLog(opts);
    expect(log.destination).toEqual({ kind: 'journal', socket, identifier: '10-annotate' });
    log.info('one');
    log.error('two\nthree');
    log.warn('four');
    await expect.poll(() => received, { timeout: 5000 }).toContain('<4>four\n');
    expect(received).toBe('10-annotate\n\n6\n1\n0\n0\n0\n<6>one\n<3>two\n<3>three\n<4>four\n');
    expect(opts.lines).toEqual([]);
    server.close();
  });
});

describe('a plugin started by a runtime', () => {
  it('sends what it writes with console to its log file, and nothing to stderr', async () => {
    const dir = await tempDir();
    const logDir = path.join(dir, 'nri');
    const script = path.join(dir, '10-chatty.mjs');
    writeFileSync(
      script,
      `import { Stub } from '${path.join(REPO, 'src/plugin/index.ts')}';
new Stub({ createContainer: () => ({}) }).start().catch(() => {});
console.error('error via console', 42);
console.log('info via console');
process.exit(0);
`,
    );
    // fd 3 is a socketpair end, as a runtime passes; nobody answers on it.
    const child = spawn(process.execPath, ['--import', TSX, script], {
      env: {
        NRI_PLUGIN_SOCKET: '3',
        NRI_PLUGIN_NAME: 'chatty',
        NRI_PLUGIN_IDX: '10',
        NRI_PLUGIN_LOG_DIR: logDir,
        NRI_PLUGIN_JOURNAL_SOCKET: path.join(dir, 'no-journal'),
        // tsx's own: no cache (without TMPDIR it would keep one in /tmp).
        TSX_DISABLE_CACHE: '1',
      },
      stdio: ['ignore', 'pipe', 'pipe', 'pipe'],
    });
    let out = '';
    child.stdout?.on('data', (d) => (out += d));
    child.stderr?.on('data', (d) => (out += d));
    const code = await new Promise((resolve) => child.once('close', resolve));
    expect(out).toBe('');
    expect(code).toBe(0);
    expect((await readFile(path.join(logDir, 'chatty.log'), 'utf8')).split('\n')).toEqual([
      expect.stringMatching(/Z ERROR error via console 42$/),
      expect.stringMatching(/Z INFO info via console$/),
      '',
    ]);
  });
});
