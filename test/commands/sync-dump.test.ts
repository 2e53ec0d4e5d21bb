import { spawn } from 'node:child_process';
import {
  chmodSync,
  existsSync,
  lstatSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import path from 'node:path';
import { stripVTControlCharacters } from 'node:util';
import { afterAll, beforeAll, describe, it } from 'vitest';
import YAML from 'yaml';
import { generateScenario } from '../../src/runtime/sim/generate.js';
import { MODE_BOUND_UNAVAILABLE, modeBound } from '../support/mode-bound.js';
import { runInProcess } from '../support/cli-in-process.js';
import { RuntimePeer } from '../plugin/peer.js';
import {
  BIN,
  cliEnv,
  demoState,
  nrictlOnTerminal,
  runCli,
  runCliChild,
  startRuntime,
  tempDir,
  type SimHandle,
} from './nri-cli.js';

/** The built CLI run from another directory, where a relative output file would land. */
const runIn = (cwd: string, args: string[]) => runInProcess(args, { env: cliEnv(), cwd });

/**
 * The lines a terminal shows at the end: on each, what follows its last carriage return.
 * When connecting takes a while (a busy machine), the spinner draws on the line the output
 * then starts on, each frame after a carriage return, and erases itself before the output.
 */
function screenLines(screen: string): string[] {
  return screen
    .split('\n')
    .map((l) => stripVTControlCharacters(l.replace(/\r$/, '').replace(/^.*\r/s, '')))
    .join('\n')
    .trimEnd()
    .split('\n');
}

let sim: SimHandle;
let demo: Awaited<ReturnType<typeof demoState>>;
let t: ReturnType<typeof tempDir>;

beforeAll(async () => {
  demo = await demoState();
  sim = await startRuntime(demo);
  t = tempDir('nrd-');
});
afterAll(async () => {
  await sim.stop();
  t.cleanup();
});

const dump = (...args: string[]) => runCli(['sync', 'dump', '--socket', sim.socketPath, ...args]);

describe.concurrent('nrictl sync dump against the simulator', () => {
  it('prints every pod and container of the scenario as a table', async ({ expect }) => {
    const r = await dump();
    expect(r.code).toBe(0);
    const lines = r.stdout.trimEnd().split('\n');
    expect(lines[0]).toMatch(/^POD\s+POD ID\s+CONTAINER\s+CONTAINER ID\s+STATE$/);
    expect(lines).toHaveLength(1 + demo.containers.length);
    for (const c of demo.containers) {
      const pod = demo.pods.find((p) => p.id === c.podSandboxId)!;
      const row = lines.find((l) => l.includes(` ${c.id} `) || l.includes(c.id!));
      expect(row, `row of ${c.name}`).toBeDefined();
      expect(row).toContain(`${pod.namespace}/${pod.name}`);
      expect(row).toMatch(new RegExp(`\\s${c.name}\\s`));
      expect(row).toMatch(/Running$/);
    }
    // Sorted by namespace/name: kube-system before shop.
    expect(lines[1]).toContain('kube-system/coredns');
    expect(r.stdout).not.toMatch(/\x1b\[/);
  });

  it('colours only when asked: none for a pipe, some with --color, whatever NO_COLOR says; none with --no-color', async ({
    expect,
  }) => {
    const [plain, coloured, asked, vetoed] = await Promise.all([
      runCli(['sync', 'dump', '--socket', sim.socketPath], { NO_COLOR: '' }),
      runCli(['sync', 'dump', '--socket', sim.socketPath, '--color'], { NO_COLOR: '' }),
      runCli(['sync', 'dump', '--socket', sim.socketPath, '--color'], { NO_COLOR: '1' }),
      runCliChild(['sync', 'dump', '--socket', sim.socketPath, '--no-color'], { FORCE_COLOR: '1' }),
    ]);
    expect(plain.stdout).not.toMatch(/\x1b\[/);
    expect(coloured.stdout).toMatch(/\x1b\[1mPOD\x1b\[22m/);
    expect(coloured.stdout).toMatch(/\x1b\[32mRunning\x1b\[39m/);
    // The user's flag for this run beats the environment's standing wish.
    expect(asked.stdout).toMatch(/\x1b\[32mRunning\x1b\[39m/);
    expect(vetoed.stdout).not.toMatch(/\x1b\[/);
  });

  it('-o wide adds cpuset, mems, memory limit, quota/period and shares', async ({ expect }) => {
    const r = await dump('-o', 'wide');
    expect(r.code).toBe(0);
    expect(r.stdout.split('\n')[0]).toMatch(/CPUSET\s+MEMS\s+MEMORY LIMIT\s+CPU QUOTA\/PERIOD\s+SHARES/);
    const redis = r.stdout.split('\n').find((l) => /\sredis\s/.test(l))!;
    expect(redis).toMatch(/\s2-3\s+0\s+1Gi\s+100000\/100000\s+1024$/);
    const coredns = r.stdout.split('\n').find((l) => /\scoredns\s/.test(l))!;
    expect(coredns).toMatch(/\s-\s+-\s+170Mi\s+-\s+102$/);
  });

  it('on a terminal narrower than the table: a list by pod; a pipe and a file keep the table', async ({ expect }) => {
    // Only a terminal has a width (src/output/width.ts): run on a pseudo-terminal.
    const narrow = await nrictlOnTerminal(['sync', 'dump', '--socket', sim.socketPath], [], { env: { COLUMNS: '60' } });
    expect(narrow.code).toBe(0);
    const lines = screenLines(narrow.screen);
    expect(lines.every((l) => l.length <= 60)).toBe(true);
    for (const c of demo.containers)
      expect(
        lines.some((l) => l.startsWith(`  ${c.name} `) && l.includes(c.id!) && l.endsWith('Running')),
        c.name!,
      ).toBe(true);
    for (const p of demo.pods) expect(lines).toContain(`${p.namespace}/${p.name}  ${p.id}`);
    const wide = await nrictlOnTerminal(['sync', 'dump', '--socket', sim.socketPath], [], { env: { COLUMNS: '200' } });
    expect(screenLines(wide.screen)).toContainEqual(
      expect.stringMatching(/^POD\s+POD ID\s+CONTAINER\s+CONTAINER ID\s+STATE$/),
    );
    const piped = await runCli(['sync', 'dump', '--socket', sim.socketPath], { COLUMNS: '60' });
    expect(piped.stdout.split('\n')[0]).toMatch(/^POD\s+POD ID/);
    const file = path.join(t.dir, 'narrow.txt');
    expect((await runCli(['sync', 'dump', '--socket', sim.socketPath, '-f', file], { COLUMNS: '60' })).code).toBe(0);
    expect(readFileSync(file, 'utf8').split('\n')[0]).toMatch(/^POD\s+POD ID/);
  });

  it('-o json carries the complete data with enum names', async ({ expect }) => {
    const r = await dump('-o', 'json');
    expect(r.code).toBe(0);
    const doc = JSON.parse(r.stdout);
    expect(doc.runtime.name).toBe('nrictl-sim');
    expect(doc.pods.map((p: { id: string }) => p.id).sort()).toEqual(demo.pods.map((p) => p.id).sort());
    expect(doc.containers).toHaveLength(demo.containers.length);
    const redis = doc.containers.find((c: { name: string }) => c.name === 'redis');
    expect(redis.state).toBe('CONTAINER_RUNNING');
    expect(redis.args).toEqual(['redis-server', '/etc/redis/redis.conf', '--maxmemory', '900mb']);
    expect(redis.linux.resources.cpu.cpus).toBe('2-3');
    expect(redis.linux.resources.memory.limit.value).toBe('1073741824'); // int64 as a string, as protojson writes it
    const checkout = doc.pods.find((p: { name: string }) => p.name.startsWith('checkout'));
    expect(checkout.annotations['prometheus.io/port']).toBe('9090');
  });

  it('-o yaml carries the same data', async ({ expect }) => {
    const [y, j] = await Promise.all([dump('-o', 'yaml'), dump('-o', 'json')]);
    expect(y.code).toBe(0);
    expect(YAML.parse(y.stdout)).toEqual(JSON.parse(j.stdout));
  });

  it('-o name: one namespace/pod/container per container, as update and evict take them', async ({ expect }) => {
    const r = await dump('-o', 'name');
    expect(r.code).toBe(0);
    const byId = new Map(demo.pods.map((p) => [p.id, p]));
    const expected = demo.containers.map((c) => {
      const p = byId.get(c.podSandboxId)!;
      return `${p.namespace}/${p.name}/${c.name}`;
    });
    expect(r.stdout.trimEnd().split('\n')).toEqual(expected.sort((a, b) => a.localeCompare(b)));
    const shop = await dump('-o', 'name', '-n', 'shop', '--container', 'redis*');
    expect(shop.stdout).toBe('shop/redis-0/redis\nshop/redis-0/redis-exporter\n');
  });

  it('filters by namespace, container glob and label, in every format', async ({ expect }) => {
    const ns = await dump('-n', 'kube-system', '-o', 'json');
    const nsDoc = JSON.parse(ns.stdout);
    expect(nsDoc.pods.map((p: { name: string }) => p.name)).toEqual(['coredns-76f75df574-8zj4k']);
    expect(nsDoc.containers.map((c: { name: string }) => c.name)).toEqual(['coredns']);

    const glob = await dump('--container', 'redis*');
    const rows = glob.stdout.trimEnd().split('\n').slice(1);
    expect(rows).toHaveLength(2);
    expect(rows.every((l) => l.includes('shop/redis-0'))).toBe(true);

    const label = await dump('-l', 'app.kubernetes.io/name=checkout', '-o', 'yaml');
    const doc = YAML.parse(label.stdout);
    expect(doc.containers.map((c: { name: string }) => c.name).sort()).toEqual(['checkout', 'envoy']);

    const none = await dump('--pod', 'nothing-*');
    expect(none.code).toBe(0);
    expect(none.stdout).toBe('');
    expect(none.stderr.trim()).toBe('nrictl sync dump: no pod or container matches the filters');
  });

  it('works on an empty runtime', async ({ expect }) => {
    const empty = await startRuntime();
    try {
      const r = await runCli(['sync', 'dump', '--socket', empty.socketPath]);
      expect(r.code).toBe(0);
      expect(r.stdout).toBe('');
      expect(r.stderr.trim()).toBe('nrictl sync dump: the runtime has no pods and no containers');
      const j = await runCli(['sync', 'dump', '--socket', empty.socketPath, '-o', 'json']);
      expect(JSON.parse(j.stdout)).toMatchObject({ pods: [], containers: [] });
      expect(j.stderr).toBe('');
      const n = await runCli(['sync', 'dump', '--socket', empty.socketPath, '-o', 'name']);
      expect([n.code, n.stdout, n.stderr]).toEqual([0, '', '']);
    } finally {
      await empty.stop();
    }
  });

  it('receives thousands of containers split over many Synchronize messages', async ({ expect }) => {
    const big = generateScenario({ pods: 400, containersPerPod: 5 });
    // Neither side's deadline is under test here: on a busy machine the 2,000 containers can
    // take longer than the default bounds (the runtime's 2 s per request, the registration's
    // 5 s) to be sent and read, so both are generous.
    const large = await startRuntime(
      { pods: big.pods, containers: big.containers },
      { syncChunkSize: 100, requestTimeoutMs: 60_000, registrationTimeoutMs: 60_000 },
    );
    try {
      const r = await runCli(['sync', 'dump', '--socket', large.socketPath, '-o', 'json', '--timeout', '60s']);
      expect(r.code, r.stderr).toBe(0);
      const doc = JSON.parse(r.stdout);
      expect(doc.pods).toHaveLength(400);
      expect(doc.containers).toHaveLength(2000);
      expect(new Set(doc.containers.map((c: { id: string }) => c.id)).size).toBe(2000);
      const sync = large.events.find((e) => e.type === 'synchronized');
      expect(sync && sync.type === 'synchronized' && sync.messages).toBeGreaterThan(1);
    } finally {
      await large.stop();
    }
  });

  it('--output-file writes the same document atomically', async ({ expect }) => {
    // A directory of its own: the tests beside it write files into t.dir meanwhile.
    const dir = path.join(t.dir, 'atomic');
    mkdirSync(dir);
    const file = path.join(dir, 'state.json');
    writeFileSync(file, 'old content');
    const r = await dump('-o', 'json', '--output-file', file);
    expect(r.code).toBe(0);
    expect(r.stdout).toBe('');
    const doc = JSON.parse(readFileSync(file, 'utf8'));
    expect(doc.containers).toHaveLength(demo.containers.length);
    expect(readdirSync(dir)).toEqual(['state.json']);
  });

  it('-f - writes to stdout and creates no file named "-"', async ({ expect }) => {
    const cwd = path.join(t.dir, 'dash');
    mkdirSync(cwd);
    const r = await runIn(cwd, ['sync', 'dump', '--socket', sim.socketPath, '-o', 'json', '-f', '-']);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout).containers).toHaveLength(demo.containers.length);
    expect(readdirSync(cwd)).toEqual([]);
  });

  it('-f with an empty name is a usage error before connecting, and writes nothing', async ({ expect }) => {
    const cwd = path.join(t.dir, 'empty');
    mkdirSync(cwd);
    const r = await runIn(cwd, ['sync', 'dump', '--socket', path.join(t.dir, 'no-such.sock'), '-f', '']);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr.trim().split('\n')).toEqual(['Error: --output-file is empty: give a file name, or - for stdout']);
    expect(readdirSync(cwd)).toEqual([]);
  });

  it('-f through a symlink writes the target and keeps the link', async ({ expect }) => {
    const real = path.join(t.dir, 'real');
    mkdirSync(real);
    const target = path.join(real, 'state.json');
    writeFileSync(target, 'old content');
    chmodSync(target, 0o640);
    const link = path.join(t.dir, 'link.json');
    symlinkSync(path.relative(t.dir, target), link); // relative, as ln -s usually makes them
    const r = await dump('-o', 'json', '-f', link);
    expect(r.code).toBe(0);
    expect(lstatSync(link).isSymbolicLink()).toBe(true);
    expect(readlinkSync(link)).toBe(path.join('real', 'state.json'));
    expect(JSON.parse(readFileSync(target, 'utf8')).containers).toHaveLength(demo.containers.length);
    expect(statSync(target).mode & 0o777).toBe(0o640);
    // The temporary file was made beside the target, and is gone.
    expect(readdirSync(real)).toEqual(['state.json']);
    // A dangling link gets its target created, as `>` would.
    const dangling = path.join(t.dir, 'dangling.json');
    symlinkSync(path.join(real, 'new.json'), dangling);
    expect((await dump('-o', 'yaml', '-f', dangling)).code).toBe(0);
    expect(lstatSync(dangling).isSymbolicLink()).toBe(true);
    expect(YAML.parse(readFileSync(path.join(real, 'new.json'), 'utf8')).containers).toHaveLength(
      demo.containers.length,
    );
  });

  it('--output-file into a missing directory fails with one line and creates nothing', async ({ expect }) => {
    const parent = path.join(t.dir, 'missing');
    const r = await dump('--output-file', path.join(parent, 'state.txt'));
    expect(r.code).toBe(1);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(r.stderr).toContain(`could not write ${path.join(parent, 'state.txt')}`);
    expect(existsSync(parent)).toBe(false);
  });

  it('--output-file into a read-only directory leaves nothing behind', async ({ expect }) => {
    if (process.getuid?.() === 0) {
      // root writes through mode bits; a directory made read-only by a bind mount is not at hand.
      // Use a path under /proc instead, which refuses every new file, even for root.
      const r = await dump('--output-file', '/proc/nrictl-state.txt');
      expect(r.code).toBe(1);
      expect(r.stderr).toContain('could not write /proc/nrictl-state.txt');
      expect(existsSync('/proc/nrictl-state.txt')).toBe(false);
      return;
    }
    const ro = path.join(t.dir, 'ro');
    mkdirSync(ro);
    chmodSync(ro, 0o555);
    const r = await dump('--output-file', path.join(ro, 'state.txt'));
    expect(r.code).toBe(1);
    expect(readdirSync(ro)).toEqual([]);
  });
});

describe.concurrent('nrictl sync dump errors', () => {
  it('no socket: exit 4, says NRI may be off and how to try without a runtime', async ({ expect }) => {
    const r = await runCli(['sync', 'dump', '--socket', path.join(t.dir, 'nope.sock')]);
    expect(r.code).toBe(4);
    const lines = r.stderr.trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toBe(
      `Error: no NRI socket at ${path.join(t.dir, 'nope.sock')}: is NRI enabled in the runtime? To try nrictl without a runtime: --sim demo`,
    );
  });

  it('honours NRI_SOCKET_PATH', async ({ expect }) => {
    const r = await runCli(['sync', 'dump', '-o', 'json'], { NRI_SOCKET_PATH: sim.socketPath });
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout).containers).toHaveLength(demo.containers.length);
  });

  it('a regular file as socket: exit 4, not a socket', async ({ expect }) => {
    const file = path.join(t.dir, 'plain');
    writeFileSync(file, '');
    const r = await runCli(['sync', 'dump', '--socket', file]);
    expect(r.code).toBe(4);
    expect(r.stderr).toContain(
      `${file} is not a socket (it is a regular file): point --socket at the runtime's NRI socket`,
    );
  });

  it('a socket nobody listens on: exit 4, connection refused', async ({ expect }) => {
    const stale = path.join(t.dir, 'stale.sock');
    // A process that listens and dies without cleaning up leaves exactly this behind.
    await new Promise<void>((resolve) => {
      const c = spawn(process.execPath, [
        '-e',
        `require('net').createServer().listen(${JSON.stringify(stale)}, () => process.kill(process.pid, 'SIGKILL'))`,
      ]);
      c.on('close', () => resolve());
    });
    expect(existsSync(stale)).toBe(true);
    const r = await runCli(['sync', 'dump', '--socket', stale]);
    expect(r.code).toBe(4);
    expect(r.stderr).toContain(`connection refused at ${stale}: the runtime is not listening (stale socket?)`);
  });

  it.skipIf(MODE_BOUND_UNAVAILABLE !== undefined)(
    `permission denied on the socket: exit 4, run as root or as the owner${MODE_BOUND_UNAVAILABLE ? ` (skipped: ${MODE_BOUND_UNAVAILABLE})` : ''}`,
    async ({ expect }) => {
      // A simulator of its own, its socket chmod 000 (the shared one serves the tests running
      // beside this one): connect() needs write permission on it, which nobody has. The CLI
      // runs as a process file modes apply to, root or not (mode-bound.ts).
      const own = await startRuntime(demo);
      chmodSync(own.socketPath, 0o000);
      try {
        const r = await new Promise<{ code: number | null; stderr: string }>((resolve) => {
          const cli = modeBound(process.execPath, [BIN, 'sync', 'dump', '--socket', own.socketPath]);
          const c = spawn(cli.command, cli.args, {
            env: { ...process.env, NODE_ENV: 'production', NO_COLOR: '1', HOME: t.dir },
            stdio: ['ignore', 'ignore', 'pipe'],
          });
          let stderr = '';
          c.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
          c.on('close', (code) => resolve({ code, stderr }));
        });
        expect(r.code).toBe(4);
        expect(r.stderr.trim()).toBe(
          `Error: permission denied on ${own.socketPath}: run as root or as the socket's owner`,
        );
      } finally {
        await own.stop();
      }
    },
  );

  it('a runtime that rejects the registration: exit 5 with its reason', async ({ expect }) => {
    const peer = await RuntimePeer.listen({
      register: () => {
        throw new Error('plugin 99-nrictl-dump is not welcome here');
      },
    });
    chmodSync(peer.socketPath, 0o600);
    try {
      const r = await runCli(['sync', 'dump', '--socket', peer.socketPath]);
      expect(r.code).toBe(5);
      expect(r.stderr.trim().split('\n')).toHaveLength(1);
      expect(r.stderr).toMatch(
        /registration of plugin 99-nrictl-dump rejected by the runtime at .*: plugin 99-nrictl-dump is not welcome here/,
      );
    } finally {
      await peer.close();
    }
  });

  it('a --plugin-name the runtime would reject is a usage error before connecting', async ({ expect }) => {
    const r = await dump('--plugin-name', 'bad name');
    expect(r.code).toBe(2);
    expect(r.stderr.trim()).toBe(
      'Error: --plugin-name "bad name": invalid plugin name "bad name": contains invalid character \' \': use letters, digits and _ . + - only',
    );
  });

  it('an invalid --plugin-index is a usage error, nothing is sent', async ({ expect }) => {
    const r = await dump('--plugin-index', '7');
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('--plugin-index');
  });

  it('--sim runs the scenario in process', async ({ expect }) => {
    const r = await runCli(['sync', 'dump', '--sim', 'examples/demo.yaml', '-o', 'json']);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout).containers).toHaveLength(demo.containers.length);
    const bad = await runCli(['sync', 'dump', '--sim', path.join(t.dir, 'none.yaml')]);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('cannot read the scenario');
  });
});
