// `nrictl plugin bundle`: a TypeScript plugin with a third-party dependency becomes
// one executable file that runs with no node_modules anywhere near it, started by
// `nrictl sim --plugin-path` as 10-demo (fd 3) and connecting on its own with --socket.
import { spawn } from 'node:child_process';
import { mkdirSync, readFileSync, renameSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import YAML from 'yaml';
import { assertBuilt, BIN, cliEnv, tempDir } from './nri-cli.js';
import { runInProcess } from '../support/cli-in-process.js';

/** The built CLI run in `cwd` (bundle resolves the entry there), in the test's own process. */
function cli(
  args: string[],
  cwd: string,
  env?: NodeJS.ProcessEnv,
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return runInProcess(args, { cwd, env: cliEnv(env) });
}

const repo = resolve('.');
let base: { dir: string; cleanup(): void };
let project: string;
let plugins: string;
let bundle: string;

const PLUGIN = `import { Stub, socketPathFromArgs } from 'nrictl/plugin';
import YAML from 'yaml';

const stub = new Stub(
  { createContainer: (pod, ctr) => ({ adjust: { annotations: { 'demo/seen': YAML.stringify({ ctr: ctr.name }).trim() } } }) },
  { socketPath: socketPathFromArgs() },
);
await stub.start();
console.error(\`\${stub.fullName} up, timeout \${stub.requestTimeoutMs}\`);
`;

interface SimEvent {
  type: string;
  plugin?: string;
  container?: string;
  adjust?: { annotations?: Record<string, string> };
  line?: string;
}

function sim(args: string[]): {
  events: Promise<SimEvent[]>;
  code: Promise<number | null>;
  listening: Promise<void>;
  stderr: () => string;
} {
  const child = spawn(process.execPath, [BIN, 'sim', ...args, '--no-interactive', '-o', 'json'], { env: cliEnv() });
  let out = '';
  let err = '';
  child.stderr.on('data', (d: Buffer) => (err += d.toString()));
  const listening = new Promise<void>((res) =>
    child.stdout.on('data', (d: Buffer) => ((out += d.toString()), out.includes('"listening"') && res())),
  );
  const code = new Promise<number | null>((res) => child.on('exit', res));
  return {
    events: code.then(() =>
      out
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l) as SimEvent),
    ),
    code,
    listening,
    stderr: () => err,
  };
}

beforeAll(async () => {
  assertBuilt('plugin/bundle', 'sim');
  base = tempDir('nrc-bundle-');
  project = join(base.dir, 'project');
  mkdirSync(join(project, 'src'), { recursive: true });
  mkdirSync(join(project, 'node_modules'));
  // Resolved as an installed package would be: through nrictl's package.json exports.
  symlinkSync(repo, join(project, 'node_modules', 'nrictl'));
  symlinkSync(join(repo, 'node_modules', 'yaml'), join(project, 'node_modules', 'yaml'));
  writeFileSync(join(project, 'package.json'), JSON.stringify({ name: 'demo', type: 'module' }));
  writeFileSync(join(project, 'src', 'index.ts'), PLUGIN);
  const r = await cli(['plugin', 'bundle', '--out', 'out/10-demo'], project);
  expect(r.code, r.stderr).toBe(0);
  expect(r.stdout).toMatch(/^Wrote out\/10-demo \(\d+ KiB, mode 0755\) from src\/index\.ts\./);
  // Far from any node_modules: everything must be inside.
  plugins = join(base.dir, 'plugins');
  mkdirSync(plugins);
  bundle = join(plugins, '10-demo');
  renameSync(join(project, 'out', '10-demo'), bundle);
  rmSync(project, { recursive: true, force: true });
}, 60_000);

afterAll(() => base?.cleanup());

describe('nrictl plugin bundle', () => {
  it('writes one executable file with a node shebang', () => {
    expect(statSync(bundle).mode & 0o777).toBe(0o755);
    const text = readFileSync(bundle, 'utf8');
    expect(text.split('\n')[0]).toBe('#!/usr/bin/env node');
    expect(text.match(/^#!/gm)).toHaveLength(1);
  });

  it('is recognised by validate, which says where it logs: a file under the log directory, or the journal', async () => {
    type Report = { findings: Array<{ severity: string; code: string; path: string; message: string }> };
    const logNote = async (env: NodeJS.ProcessEnv) => {
      const r = await cli(['validate', plugins, '-o', 'json'], base.dir, env);
      return (JSON.parse(r.stdout) as Report).findings.filter((f) => f.code.startsWith('plugin-log'));
    };
    const logDir = join(base.dir, 'nri-logs');
    const journal = join(base.dir, 'journal.sock');
    expect(await logNote({ NRI_PLUGIN_LOG_DIR: logDir, NRI_PLUGIN_JOURNAL_SOCKET: journal })).toEqual([
      {
        severity: 'info',
        code: 'plugin-log',
        path: bundle,
        message: expect.stringContaining(`logs to ${logDir}/demo.log (no journal at ${journal};`) as string,
        fix: expect.any(String) as string,
      },
    ]);
    // A real unix socket where the journal's would be.
    const server = createServer(() => {});
    await new Promise<void>((res) => server.listen(journal, res));
    try {
      const [note] = await logNote({ NRI_PLUGIN_LOG_DIR: logDir, NRI_PLUGIN_JOURNAL_SOCKET: journal });
      expect(note.message).toBe(
        `an nrictl bundle: started by the runtime, it logs to the journal (${journal}): journalctl -t 10-demo`,
      );
    } finally {
      server.close();
    }
    // A bundle from an nrictl before this logging: told apart by its prelude.
    const old = join(base.dir, 'old-plugins');
    mkdirSync(old);
    const text = readFileSync(bundle, 'utf8').replace(/^\/\/ nrictl-plugin-log:.*\n/m, '');
    writeFileSync(join(old, '10-demo'), text, { mode: 0o755 });
    const r = await cli(['validate', old, '-o', 'json'], base.dir);
    expect((JSON.parse(r.stdout) as Report).findings.filter((f) => f.code.startsWith('plugin-log'))).toEqual([
      expect.objectContaining({ severity: 'warning', code: 'plugin-log-discarded' }),
    ]);
  });

  it('is started by the simulator from its plugin directory as 10-demo, on fd 3', async () => {
    const s = sim(['--plugin-path', plugins, '--scenario', 'examples/demo.yaml']);
    expect(await s.code, s.stderr()).toBe(0);
    const events = await s.events;
    expect(events.find((e) => e.type === 'launched')?.plugin).toBe('10-demo');
    expect(events.some((e) => e.type === 'synchronized' && e.plugin === '10-demo')).toBe(true);
    const adjusted = events.find((e) => e.type === 'adjusted');
    expect(adjusted?.plugin).toBe('10-demo');
    expect(adjusted?.adjust?.annotations?.['demo/seen']).toBe('ctr: payments');
    expect(events.filter((e) => e.type === 'dropped' || e.type === 'error')).toEqual([]);
  }, 60_000);

  it('connects as an external plugin with --socket', async () => {
    const sock = join(base.dir, 'ext.sock');
    const s = sim(['--socket', sock, '--scenario', 'examples/demo.yaml', '--wait-for-plugins', '1']);
    await s.listening;
    const plugin = spawn(bundle, ['--socket', sock], { env: { ...process.env, NRI_PLUGIN_SOCKET: '' } });
    let perr = '';
    plugin.stderr.on('data', (d: Buffer) => (perr += d.toString()));
    expect(await s.code, s.stderr()).toBe(0);
    const events = await s.events;
    expect(events.find((e) => e.type === 'registered')).toMatchObject({ plugin: '10-demo', external: true });
    expect(events.find((e) => e.type === 'adjusted')?.adjust?.annotations?.['demo/seen']).toBe('ctr: payments');
    await new Promise((r) => (plugin.exitCode !== null ? r(null) : plugin.on('exit', r)));
    expect(perr).toContain('10-demo up, timeout 2000');
  }, 60_000);

  it('-o is the output format: the result as json and yaml, the same in both', async () => {
    const dir = join(base.dir, 'formats');
    mkdirSync(join(dir, 'src'), { recursive: true });
    writeFileSync(join(dir, 'src', 'index.ts'), 'console.log("plugin");\n');
    const json = await cli(['plugin', 'bundle', '--out', 'out/20-fmt', '-o', 'json'], dir);
    expect(json.code, json.stderr).toBe(0);
    expect(json.stderr).toBe('');
    const doc = JSON.parse(json.stdout) as Record<string, unknown>;
    expect(doc).toEqual({
      file: 'out/20-fmt',
      bytes: statSync(join(dir, 'out', '20-fmt')).size,
      entry: 'src/index.ts',
      mode: '0755',
      plugin: { index: '20', name: 'fmt' },
    });
    const yaml = await cli(['plugin', 'bundle', '--out', 'plain.js', '-o', 'yaml'], dir);
    expect(yaml.code, yaml.stderr).toBe(0);
    expect(YAML.parse(yaml.stdout)).toEqual({ ...doc, file: 'plain.js', plugin: null });
  });

  it('-o FILE still works this release as --out FILE, with one line of warning', async () => {
    const dir = join(base.dir, 'legacy');
    mkdirSync(join(dir, 'src'), { recursive: true });
    writeFileSync(join(dir, 'src', 'index.ts'), 'console.log("plugin");\n');
    const r = await cli(['plugin', 'bundle', '-o', 'out/10-old'], dir);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toBe(
      'Warning: -o FILE is deprecated: use --out out/10-old (-o is the output format now: table, json, yaml)\n',
    );
    expect(r.stdout).toMatch(/^Wrote out\/10-old \(\d+ KiB, mode 0755\) from src\/index\.ts\.\n/);
    expect(statSync(join(dir, 'out', '10-old')).mode & 0o777).toBe(0o755);
    // Both at once, or neither: exit 2, nothing written.
    const both = await cli(['plugin', 'bundle', '--out', 'a', '-o', 'b'], dir);
    expect(both.code).toBe(2);
    expect(both.stderr).toMatch(/^Error: give the file once, with --out \(not also -o b\)$/m);
    const none = await cli(['plugin', 'bundle', '-o', 'json'], dir);
    expect(none.code).toBe(2);
    expect(none.stderr.trim()).toBe('Error: --out is required: the file to write, such as --out build/10-demo');
    expect(() => statSync(join(dir, 'a'))).toThrow();
    expect(() => statSync(join(dir, 'b'))).toThrow();
  });

  it('refuses a missing entry with exit 2 and writes nothing', async () => {
    const r = await cli(['plugin', 'bundle', 'nope.ts', '--out', join(base.dir, '10-x')], base.dir);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('nope.ts: no such file');
    expect(() => statSync(join(base.dir, '10-x'))).toThrow();
  });

  it('reports a compile error with file and line, exit 1', async () => {
    const dir = join(base.dir, 'broken');
    mkdirSync(join(dir, 'src'), { recursive: true });
    writeFileSync(join(dir, 'src', 'index.ts'), "import { nothing } from './missing.js';\nnothing();\n");
    const r = await cli(['plugin', 'bundle', '--out', '10-x'], dir);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(
      /could not bundle src\/index\.ts: src\/index\.ts:1:\d+: Could not resolve "\.\/missing\.js"/,
    );
  });
});
