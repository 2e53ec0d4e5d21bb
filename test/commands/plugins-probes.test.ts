// `nrictl plugins` without the runtime's metrics: the probes of the node against real
// things. A simulated runtime listens on a unix socket in a temp dir; an SDK plugin in a
// child process connects to it from outside; another child process carries the
// environment a runtime gives a plugin it starts (and has a child of its own, which
// inherits it). The rows must name each as what it is, with its pid.
import { spawn, type ChildProcess } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { basename, join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeElf } from '../checks/helpers.js';
import { reachableTempDir } from '../support/reachable.js';
import { CANNOT_SWITCH_USER, cleanupAsNobody, nrictlAsNobody } from './as-another-user.js';
import { assertBuilt, runCli, startRuntime, type SimHandle } from './nri-cli.js';

interface Listed {
  source: string;
  plugins: Array<{ name: string; state: string; file?: string; process?: { pid: number; command: string } }>;
  connections: Array<{ inode: number; peers: Array<{ pid: number; command: string }> }>;
  probes: { socketPath: string; listening: boolean; limits: string[] };
}

const isRoot = process.getuid?.() === 0;
/** A process's comm: its executable's name, cut to 15 characters. */
const node = basename(process.execPath).slice(0, 15);
const re = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
// Unique names: other test runs on this machine may have plugins running under the usual ones.
const tag = `probe${process.pid}`;
let sim: SimHandle;
let t: ReturnType<typeof reachableTempDir>;
let external: ChildProcess;
let prestarted: ChildProcess;
/** A runtime config of nothing but defaults, so the host's own config is not read. */
let config: string;

beforeAll(async () => {
  assertBuilt('plugins');
  sim = await startRuntime();
  t = reachableTempDir('nrprb-');
  chmodSync(t.dir, 0o755); // an ordinary user lists it too (the last test)
  config = join(t.dir, 'config.toml');
  writeFileSync(config, 'version = 3\n');
  chmodSync(config, 0o644);
  writeElf(join(t.dir, `30-${tag}-idle`));
  writeElf(join(t.dir, `40-${tag}-pre`));
  // An external plugin: the SDK in its own process, connecting to the socket by path.
  const script = join(t.dir, 'external.mjs');
  writeFileSync(
    script,
    `const { Stub } = await import(${JSON.stringify(pathToFileURL(resolve('dist/src/plugin/index.js')).href)});\n` +
      `const stub = new Stub({ createContainer: async () => ({}), onClose: () => process.exit(0) }, { name: '${tag}-ext', index: '50', socketPath: process.argv[2] });\n` +
      'await stub.start();\n',
  );
  const env = { ...process.env };
  for (const k of ['NRI_PLUGIN_NAME', 'NRI_PLUGIN_IDX', 'NRI_PLUGIN_SOCKET']) delete env[k];
  external = spawn(process.execPath, [script, sim.socketPath], { stdio: ['ignore', 'ignore', 'inherit'], env });
  const died = new Promise<never>((_, reject) =>
    external.once('exit', (code) => reject(new Error(`the external plugin exited (${code}) before it synchronized`))),
  );
  await Promise.race([sim.synchronized(`50-${tag}-ext`), died]);
  // As a runtime starts a plugin: exactly these three variables, and the file on the
  // command line (here a script after its interpreter). Its child inherits the environment.
  const pre = join(mkdtempSync(join(t.dir, 'bin-')), `40-${tag}-pre`);
  const forever = 'setInterval(() => {}, 1000)';
  writeFileSync(
    pre,
    `require('child_process').spawn(process.execPath, ['-e', '${forever}'], { stdio: 'ignore' }); ${forever}\n`,
  );
  prestarted = spawn(process.execPath, [pre], {
    stdio: 'ignore',
    detached: true,
    env: { NRI_PLUGIN_NAME: `${tag}-pre`, NRI_PLUGIN_IDX: '40', NRI_PLUGIN_SOCKET: '3' },
  });
  // Until its child is there: the first test's "the parent only" needs both.
  const children = `/proc/${prestarted.pid}/task/${prestarted.pid}/children`;
  while (!existsSync(children) || readFileSync(children, 'utf8').trim() === '') {
    if (prestarted.exitCode !== null) throw new Error(`the pre-started plugin exited (${prestarted.exitCode})`);
    await new Promise((r) => setTimeout(r, 20));
  }
});

afterAll(async () => {
  external?.kill();
  if (prestarted?.pid) process.kill(-prestarted.pid, 'SIGKILL');
  await sim?.stop();
  t?.cleanup();
  cleanupAsNobody();
});

const plugins = (extra: string[] = [], env?: NodeJS.ProcessEnv) =>
  runCli(['plugins', '--runtime-config', config, '--plugin-dir', t.dir, '--socket', sim.socketPath, ...extra], env);

describe('nrictl plugins without metrics: the probes', () => {
  it('names the running pre-started plugin by its process, the idle one as not running, and the external connection by its peer pid', async () => {
    const r = await plugins(['-o', 'json']);
    expect(r.code, r.stderr).toBe(0);
    const l = JSON.parse(r.stdout) as Listed;
    expect(l.source).toBe('plugin-dir');
    const ours = l.plugins.filter((p) => p.name.includes(tag));
    expect(ours).toEqual([
      {
        name: `30-${tag}-idle`,
        state: 'not-running',
        origin: 'plugin-dir',
        file: join(t.dir, `30-${tag}-idle`),
      },
      // The parent only: its child carries the same environment.
      {
        name: `40-${tag}-pre`,
        state: 'running',
        origin: 'plugin-dir',
        file: join(t.dir, `40-${tag}-pre`),
        process: { pid: prestarted.pid, command: node },
      },
    ]);
    expect(l.probes.listening).toBe(true);
    // The simulator accepted exactly one connection: the external plugin's.
    expect(l.connections).toHaveLength(1);
    expect(l.connections[0].peers).toEqual([{ pid: external.pid, command: node }]);
    if (!isRoot) expect(l.probes.limits.join('\n')).toMatch(/^not root: the environment of \d+ process/m);
  });

  it('the table says what each probe saw, and that the connection has no NRI name here', async () => {
    const r = await plugins();
    expect(r.code, r.stderr).toBe(0);
    const line = (start: string) => r.stdout.split('\n').find((l) => l.startsWith(start)) ?? '';
    expect(line(`40-${tag}-pre`)).toMatch(
      new RegExp(
        `^40-${tag}-pre\\s+running\\s+installed file; process ${prestarted.pid} "${node}" with NRI_PLUGIN_NAME/IDX \\(as runtimes start plugins\\)$`,
      ),
    );
    expect(line(`30-${tag}-idle`)).toMatch(
      /\s+installed, not running\s+installed file; no process with NRI_PLUGIN_NAME\/IDX$/,
    );
    expect(line('(name unknown)')).toMatch(
      new RegExp(
        `^\\(name unknown\\)\\s+external, connected\\s+connection to ${re(sim.socketPath)} from pid ${external.pid} "${node}"$`,
      ),
    );
    expect(r.stdout).toContain(`1 client is connected to ${sim.socketPath} now`);
    expect(r.stderr.trim()).toMatch(
      /^nrictl plugins: \S+config\.toml sets no metrics address .*what probes of the node see; set one, or pass --metrics-url$/,
    );
  });

  it('without ss (iproute2) it says the peers are not named, rather than leaving them out', async () => {
    const r = await plugins(['-o', 'json'], { PATH: mkdtempSync(join(t.dir, 'empty-path-')) });
    expect(r.code, r.stderr).toBe(0);
    const l = JSON.parse(r.stdout) as Listed;
    expect(l.connections.map((c) => c.peers)).toEqual([[]]);
    expect(l.probes.limits).toContain(
      'ss (iproute2) is not installed: the processes at the other end of the connections are not named',
    );
    const table = await plugins([], { PATH: mkdtempSync(join(t.dir, 'empty-path-')) });
    expect(table.stdout).toMatch(/\(name unknown\)\s+external, connected\s+connection to \S+ \(process not named\)/);
    expect(table.stdout).toContain('Not seen: ss (iproute2) is not installed');
  });

  it('--root naming another tree: no probes of this machine, and says so', async () => {
    const other = mkdtempSync(join(t.dir, 'root-'));
    const r = await runCli([
      'plugins',
      '--root',
      other,
      '--plugin-dir',
      t.dir,
      '--socket',
      sim.socketPath,
      '-o',
      'json',
    ]);
    expect(r.code, r.stderr).toBe(0);
    const l = JSON.parse(r.stdout) as Listed;
    expect(l.plugins.filter((p) => p.name.includes(tag)).map((p) => [p.name, p.state, p.process])).toEqual([
      [`30-${tag}-idle`, 'installed', undefined],
      [`40-${tag}-pre`, 'installed', undefined],
    ]);
    expect(l.connections).toEqual([]);
    expect(l.probes.limits).toEqual([
      `--root ${other}: the probes see this machine's processes and sockets, not that tree's: whether a plugin runs, and which connect, is not known`,
    ]);
  });

  it('a socket nobody listens on: no connections, and says so', async () => {
    const r = await runCli([
      'plugins',
      '--runtime-config',
      config,
      '--plugin-dir',
      t.dir,
      '--socket',
      join(t.dir, 'nobody.sock'),
      '-o',
      'json',
    ]);
    const l = JSON.parse(r.stdout) as Listed;
    expect([l.probes.listening, l.connections]).toEqual([false, []]);
    expect(l.probes.limits).toContain(
      `nothing listens on ${join(t.dir, 'nobody.sock')} in this network namespace: the runtime has NRI off or uses another socket (--socket), or runs in another namespace`,
    );
  });

  it.skipIf(CANNOT_SWITCH_USER !== undefined)(
    `as an ordinary user: the plugin by its command line only, the connection's process not named, and why${CANNOT_SWITCH_USER ? ` (skipped: ${CANNOT_SWITCH_USER})` : ''}`,
    () => {
      const r = nrictlAsNobody(
        'plugins',
        '--runtime-config',
        config,
        '--plugin-dir',
        t.dir,
        '--socket',
        sim.socketPath,
        '-o',
        'json',
      );
      expect(r.code, r.stderr).toBe(0);
      const l = JSON.parse(r.stdout) as Listed;
      expect(l.plugins.filter((p) => p.name.includes(tag))).toEqual([
        { name: `30-${tag}-idle`, state: 'not-running', origin: 'plugin-dir', file: join(t.dir, `30-${tag}-idle`) },
        {
          name: `40-${tag}-pre`,
          state: 'installed',
          origin: 'plugin-dir',
          file: join(t.dir, `40-${tag}-pre`),
          process: { pid: prestarted.pid, command: node },
          byCommandLine: true,
        },
      ]);
      expect(l.connections.map((c) => c.peers)).toEqual([[]]);
      expect(l.probes.limits).toEqual([
        expect.stringMatching(
          /^not root: the environment of \d+ process(es)? could not be read: a plugin among them is seen by its command line only/,
        ),
        "not root: ss names only this user's processes (it reads other users' /proc/PID/fd only as root)",
      ]);
    },
  );
});
